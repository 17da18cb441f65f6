/* arena_scribbled_by_grabbed.sh runs arena_scribbled_by_target.d: the same program, on another process */
