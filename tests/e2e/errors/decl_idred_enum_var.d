enum e { A };
int A;
