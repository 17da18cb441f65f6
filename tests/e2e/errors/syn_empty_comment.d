/*
 * nothing but a comment
 */
