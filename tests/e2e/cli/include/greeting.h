#ifndef GREETING_H
#define GREETING_H
#define GREETING "hello from an -I directory"
#endif
