/* Found first (its directory was named first): dlib_a's z_base.d is skipped. */
typedef int answer_t;
inline answer_t answer = 7;
