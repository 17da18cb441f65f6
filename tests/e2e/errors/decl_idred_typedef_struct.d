struct s {
	int a;
};
typedef struct s s_t;
typedef struct s s_t;
