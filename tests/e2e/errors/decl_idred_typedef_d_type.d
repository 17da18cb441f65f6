/* outside a header a typedef meets D's own types: DTrace's "D" container has int8_t */
typedef char int8_t;
