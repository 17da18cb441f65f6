/* A D library: an inline whose stability the library itself sets. */
inline uint64_t lib_stamp = timestamp;
#pragma D attributes Evolving/Evolving/Common lib_stamp
