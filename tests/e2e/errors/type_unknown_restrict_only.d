/* restrict is an attribute like const: alone it names no type */
restrict handle;
