/* a qualifier alone names no type: DTrace looks up an empty name */
volatile counter_value;
