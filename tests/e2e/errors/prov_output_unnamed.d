/* Output parameters need names (only input ones may be anonymous) */
provider p {
	probe a(int) : (long);
};
