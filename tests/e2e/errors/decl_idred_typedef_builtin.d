self int uint64_t;
