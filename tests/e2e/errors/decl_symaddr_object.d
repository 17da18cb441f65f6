/* _usymaddr is a typedef of void: no variable can have it */
_usymaddr x;
