/* A D library setting the attribute minimum for its own compilation only. */
#pragma D option amin=Standard/Standard/Common
