unsigned string s;
