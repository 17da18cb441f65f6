/* a storage class alone declares an int, so the class itself is refused */
auto total;
