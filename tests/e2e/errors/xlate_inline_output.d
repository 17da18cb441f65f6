struct reading { int raw; };
struct celsius { int deg; };
struct kelvin { int deg; };

translator struct celsius < struct reading *r > {
	deg = r->raw / 10;
};

/* an inline of a translation must name the translator's output */
inline struct kelvin *k = xlate<struct celsius *>((struct reading *)0);
