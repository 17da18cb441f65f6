int pid;
