enum e { A, pid };
