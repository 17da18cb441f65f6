inline int timestamp = 1;
