/* grab_while_allocating.sh runs grab_restores_text.d: the same program, on another process */
