/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kprobe_events line parser: one definition line in, a struct
 * rtk_def out, or the position and reason of the first fault.
 * Documentation/trace/ringtrace-kprobes.rst has the syntax.
 */
#ifndef _RINGTRACE_KPROBE_PARSE_H
#define _RINGTRACE_KPROBE_PARSE_H

#include <linux/string.h>
#include <linux/types.h>

/* The spec's limit on fetch-args per probe. */
#define RTK_MAX_ARGS		128
/*
 * Longest definition line accepted, in bytes, without its newline: a
 * 4096-byte write holding no newline is a piece of a longer line (stdio
 * writes in st_blksize pieces) and is refused.
 */
#define RTK_MAX_LINE		4095
/* Longest event or group name. */
#define RTK_MAX_NAME		64
/* Deepest nesting of +|-offs(FETCHARG). */
#define RTK_MAX_DEREF		16

enum rtk_fetch_kind {
	RTK_FETCH_REG,		/* %REG: @value is the pt_regs offset */
	RTK_FETCH_STACK,	/* sN, $stackN: @value is N */
	RTK_FETCH_STACK_ADDR,	/* sa, $stack */
	RTK_FETCH_MEM,		/* @ADDR: @value is the address */
	RTK_FETCH_SYMBOL,	/* @SYM[+|-offs]: @symbol, @value the offset */
	RTK_FETCH_ARG,		/* aN, $argN: @value is N */
	RTK_FETCH_RETVAL,	/* rv, $retval */
	RTK_FETCH_RETADDR,	/* ra */
	RTK_FETCH_DEREF,	/* +|-offs(FETCHARG): @value the offset */
	RTK_FETCH_COMM,		/* $comm */
	RTK_FETCH_UDEREF,	/* +|-uoffs(FETCHARG): from user memory */
	RTK_FETCH_IMM,		/* \IMM: @value is IMM */
	RTK_FETCH_IMM_STRING,	/* \"text": @symbol holds the text */
};

/**
 * struct rtk_fetch - where a fetch-arg gets its value
 * @kind:	one of enum rtk_fetch_kind
 * @value:	register offset, index, address or offset, per @kind
 * @symbol:	the data symbol of RTK_FETCH_SYMBOL, the text of
 *		RTK_FETCH_IMM_STRING
 * @inner:	the fetch-arg an RTK_FETCH_DEREF or _UDEREF dereferences
 */
struct rtk_fetch {
	enum rtk_fetch_kind	kind;
	long			value;
	char			*symbol;
	struct rtk_fetch	*inner;
};

enum rtk_type {
	RTK_TYPE_DEFAULT,	/* unsigned long, printed in hex */
	RTK_TYPE_U8, RTK_TYPE_U16, RTK_TYPE_U32, RTK_TYPE_U64,
	RTK_TYPE_S8, RTK_TYPE_S16, RTK_TYPE_S32, RTK_TYPE_S64,
	RTK_TYPE_X8, RTK_TYPE_X16, RTK_TYPE_X32, RTK_TYPE_X64,
	RTK_TYPE_SYMBOL,	/* a u64 printed as the symbol it points into */
	RTK_TYPE_STRING,	/* the first string type: see rtk_type_is_string() */
	RTK_TYPE_USTRING,	/* a string in user memory */
	RTK_TYPE_SYMSTR,	/* the name of the symbol a value points into */
};

/* Whether @type records text (a string field) rather than a number. */
static inline bool rtk_type_is_string(enum rtk_type type)
{
	return type >= RTK_TYPE_STRING;
}

/* Whether @f reads memory: it names an address (@ADDR, @SYM, +|-[u]offs()). */
static inline bool rtk_fetch_is_memory(const struct rtk_fetch *f)
{
	return f->kind == RTK_FETCH_MEM || f->kind == RTK_FETCH_SYMBOL ||
	       f->kind == RTK_FETCH_DEREF || f->kind == RTK_FETCH_UDEREF;
}

/* Longest array of TYPE[N], as upstream's. */
#define RTK_MAX_ARRAY		64

/**
 * struct rtk_arg - one fetch-arg of a probe
 * @name:	its field name: NAME= if given, else "argN"
 * @alias:	the fetch-arg's own text when it is a name ("a0", "rv"),
 *		shown in the format and usable in filters; or NULL
 * @text:	the fetch-arg as written, for listing the probe
 * @fetch:	where its value comes from
 * @type:	its type (of each element, for an array)
 * @count:	TYPE[N]: N elements at consecutive addresses; 0 for one value
 * @bit_width:	b<W>@<O>/<S>: W bits (the type is uS), 0 if not a bitfield
 * @bit_offset:	and their offset O from the value's least significant bit
 * @pos:	where it starts in the line, for error_log carets
 */
struct rtk_arg {
	char			*name;
	char			*alias;
	char			*text;
	struct rtk_fetch	*fetch;
	enum rtk_type		type;
	unsigned int		count;
	u8			bit_width;
	u8			bit_offset;
	unsigned int		pos;
};

enum rtk_def_kind {
	RTK_DEF_PROBE,		/* p */
	RTK_DEF_RETPROBE,	/* r */
	RTK_DEF_DELETE,		/* -:EVENT */
};

/**
 * struct rtk_def - a parsed kprobe_events line
 * @kind:	probe, return probe or deletion
 * @maxactive:	rN: instances of a return probe at once, 0 for the default
 * @group:	the events/ system: "kprobes" unless GROUP/ was given
 * @event:	the event name, given or made from the probe point
 * @symbol:	the probed symbol, or NULL for an address
 * @offset:	offset from @symbol
 * @addr:	the probed address when there is no @symbol
 * @nr_args:	entries in @args
 * @nr_strings:	how many of them are of a string type
 * @args:	the fetch-args
 * @match:	-:EVENT POINT [ARG...]: the text after EVENT, naming which of
 *		the event's probe points to remove (NULL: all)
 * @upstream:	defined while options/upstream_kprobes was 1: unnamed
 *		fetch-args are arg1, arg2... (upstream's names, by position
 *		from 1), not the spec's arg0, arg1..., and the probe's lines
 *		are upstream's
 */
struct rtk_def {
	enum rtk_def_kind	kind;
	unsigned int		maxactive;
	char			*group;
	char			*event;
	char			*symbol;
	unsigned long		offset;
	unsigned long		addr;
	unsigned int		nr_args;
	unsigned int		nr_strings;
	struct rtk_arg		*args;
	char			*match;
	bool			upstream;
};

/**
 * struct rtk_error - why a line was refused
 * @pos:	byte offset of the fault in the line
 * @msg:	what is wrong there
 */
struct rtk_error {
	unsigned int	pos;
	const char	*msg;
};

/*
 * Whether @arg was written NAME=FETCHARG (a fetch-arg of its own may hold
 * a "=", as \"a=b" does).
 */
static inline bool rtk_arg_named(const struct rtk_arg *arg)
{
	size_t len = strlen(arg->name);

	return !strncmp(arg->text, arg->name, len) && arg->text[len] == '=';
}

/* @arg's fetch-arg text, without NAME=. */
static inline const char *rtk_arg_fetch_text(const struct rtk_arg *arg)
{
	return rtk_arg_named(arg) ? arg->text + strlen(arg->name) + 1 :
				    arg->text;
}

struct rtk_def *rtk_parse(const char *line, bool upstream,
			  struct rtk_error *err);
void rtk_free_def(struct rtk_def *def);

#endif /* _RINGTRACE_KPROBE_PARSE_H */
