/*
 * A D library that needs another: loaded after z_base.d although its name
 * comes first.
 */
#pragma D depends_on library z_base.d

inline answer_t twice = answer * 2;
