/* -n program: see syn_n_end_of_input.args */
