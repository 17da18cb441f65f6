/* signed and unsigned together name no type */
unsigned char signed flag;
