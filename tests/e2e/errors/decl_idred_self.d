self int x;
self char x;
