/* -n program: see expr_deref_nonptr_n.args */
