/* usdtsem.c: a SystemTap probe guarded by its semaphore. */
#ifndef USDTSEM_H
#define USDTSEM_H
/* Fire `guarded` with n if its semaphore is non-zero; 1 if it was. */
int usdtsem_guarded(long n);
/* Fire it whatever the semaphore says. */
void usdtsem_fire(long n);
unsigned usdtsem_value(void);
void *usdtsem_address(void);
#endif
