/* grab_just_started.sh runs grab_restores_text.d: the same program, on another process */
