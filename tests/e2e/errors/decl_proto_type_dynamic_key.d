int counts[int [int]];
