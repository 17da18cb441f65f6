enum e;
enum e { A };
