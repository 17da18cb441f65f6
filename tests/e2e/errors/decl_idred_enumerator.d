enum e { A, B };
enum f { C, A };
