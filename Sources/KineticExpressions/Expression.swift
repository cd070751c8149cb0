// The expression language of section 4.
