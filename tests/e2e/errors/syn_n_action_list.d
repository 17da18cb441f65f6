/* -n program: see syn_n_action_list.args */
