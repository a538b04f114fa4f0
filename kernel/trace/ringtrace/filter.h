/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace event filters: "field op value" predicates joined by && || !
 * and parentheses, compiled once into a flat program and run on records.
 * Documentation/trace/ringtrace.rst has the grammar.
 */
#ifndef _RINGTRACE_FILTER_H
#define _RINGTRACE_FILTER_H

#include <linux/types.h>

/**
 * struct rtf_field - a record field a filter may name
 * @name:	the name used in expressions (an alias is one more entry)
 * @offset:	byte offset in the record
 * @size:	bytes: 1, 2, 4 or 8 for numbers, the array size for strings
 *		(0: the string runs to the end of the record)
 * @is_signed:	numbers: compare as signed
 * @is_string:	a char array holding a string, NUL-terminated unless full
 * @is_dynamic:	a string elsewhere in the record: the field is its 4-byte
 *		__data_loc word, length << 16 | offset from the record's start
 */
struct rtf_field {
	const char	*name;
	unsigned int	offset;
	unsigned int	size;
	bool		is_signed;
	bool		is_string;
	bool		is_dynamic;
};

/**
 * struct rtf_error - why an expression was refused
 * @pos:	byte offset in the expression where it went wrong
 * @msg:	what was expected or found there
 */
struct rtf_error {
	unsigned int	pos;
	const char	*msg;
};

struct rtf_prog;

/* Longest expression accepted, in bytes. */
#define RTF_MAX_EXPR		4096
/* Deepest nesting of parentheses and "!". */
#define RTF_MAX_DEPTH		32

struct rtf_prog *rtf_compile(const char *expr,
			     const struct rtf_field *fields,
			     unsigned int nr_fields, struct rtf_error *err);
bool rtf_match(const struct rtf_prog *prog, const void *record,
	       unsigned int size);
void rtf_free(struct rtf_prog *prog);
u64 rtf_load(const void *field, unsigned int size, bool is_signed);

#endif /* _RINGTRACE_FILTER_H */
