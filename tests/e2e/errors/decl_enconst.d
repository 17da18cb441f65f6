enum e { A = "x" };
