// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace event filters: compiler and evaluator.
 *
 * An expression is parsed by recursive descent (nesting bounded by
 * RTF_MAX_DEPTH, so the kernel stack is too) into a flat program in
 * reverse Polish order: predicate instructions push one bit, AND and OR
 * combine the top two, NOT flips the top one.  The stack is the bits of a
 * u64 and the compiler proves the program never needs more than 64 of
 * them, so rtf_match() allocates nothing, takes no lock and cannot fail.
 *
 * Numbers compare as signed or unsigned following the field; strings
 * compare exactly (== !=) or by glob (~, with * and ?).
 */

#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "filter.h"

enum rtf_op {
	RTF_OP_EQ,
	RTF_OP_NE,
	RTF_OP_LT,
	RTF_OP_LE,
	RTF_OP_GT,
	RTF_OP_GE,
	RTF_OP_BITS,	/* & : any of the bits set */
	RTF_OP_GLOB,	/* ~ : strings only */
};

enum rtf_insn_kind {
	RTF_INSN_PRED,
	RTF_INSN_AND,
	RTF_INSN_OR,
	RTF_INSN_NOT,
};

struct rtf_insn {
	u16	kind;
	u16	pred;
};

struct rtf_pred {
	unsigned int	offset;
	unsigned int	size;
	u8		op;
	bool		is_signed;
	bool		is_string;
	bool		is_dynamic;
	u64		value;		/* numbers */
	unsigned int	str;		/* strings: offset in prog->strings */
	unsigned int	str_len;
};

struct rtf_prog {
	unsigned int	nr_insns;
	struct rtf_insn	*insns;
	struct rtf_pred	*preds;
	char		*strings;
};

/* Bits of the evaluation stack. */
#define RTF_STACK_BITS	64

struct rtf_compiler {
	const char		*expr;
	unsigned int		pos;
	unsigned int		len;
	const struct rtf_field	*fields;
	unsigned int		nr_fields;
	struct rtf_error	*err;
	unsigned int		depth;
	unsigned int		stack;
	struct rtf_insn		*insns;
	unsigned int		nr_insns;
	unsigned int		max_insns;
	struct rtf_pred		*preds;
	unsigned int		nr_preds;
	unsigned int		max_preds;
	char			*strings;
	unsigned int		str_size;
};

static int rtf_fail(struct rtf_compiler *c, unsigned int pos, const char *msg)
{
	c->err->pos = pos;
	c->err->msg = msg;
	return -EINVAL;
}

static void rtf_skip_space(struct rtf_compiler *c)
{
	while (c->pos < c->len && isspace(c->expr[c->pos]))
		c->pos++;
}

/* Consume @tok if it comes next (after spaces). */
static bool rtf_accept(struct rtf_compiler *c, const char *tok)
{
	size_t n = strlen(tok);

	rtf_skip_space(c);
	if (c->len - c->pos < n || strncmp(c->expr + c->pos, tok, n))
		return false;
	c->pos += n;
	return true;
}

static int rtf_emit(struct rtf_compiler *c, enum rtf_insn_kind kind,
		    unsigned int pred)
{
	if (c->nr_insns >= c->max_insns)
		return rtf_fail(c, c->pos, "expression too complex");
	c->insns[c->nr_insns].kind = kind;
	c->insns[c->nr_insns].pred = pred;
	c->nr_insns++;
	if (kind == RTF_INSN_PRED) {
		if (++c->stack > RTF_STACK_BITS)
			return rtf_fail(c, c->pos, "expression nested too deeply");
	} else if (kind != RTF_INSN_NOT) {
		c->stack--;
	}
	return 0;
}

static bool rtf_is_ident_char(char ch, bool first)
{
	return isalpha(ch) || ch == '_' || (!first && (isdigit(ch) || ch == '.'));
}

static const struct rtf_field *rtf_parse_field(struct rtf_compiler *c)
{
	unsigned int start, i;

	rtf_skip_space(c);
	start = c->pos;
	while (c->pos < c->len &&
	       rtf_is_ident_char(c->expr[c->pos], c->pos == start))
		c->pos++;
	if (c->pos == start) {
		rtf_fail(c, start, "expected a field name");
		return NULL;
	}
	for (i = 0; i < c->nr_fields; i++) {
		const struct rtf_field *f = &c->fields[i];

		if (strlen(f->name) == c->pos - start &&
		    !strncmp(f->name, c->expr + start, c->pos - start))
			return f;
	}
	rtf_fail(c, start, "no such field");
	return NULL;
}

static int rtf_parse_op(struct rtf_compiler *c)
{
	static const struct {
		const char *tok;
		enum rtf_op op;
	} ops[] = {
		/* Two-character operators first. */
		{ "==", RTF_OP_EQ }, { "!=", RTF_OP_NE }, { "<=", RTF_OP_LE },
		{ ">=", RTF_OP_GE }, { "<", RTF_OP_LT }, { ">", RTF_OP_GT },
		{ "~", RTF_OP_GLOB },
	};
	unsigned int i;

	rtf_skip_space(c);
	/* "&" is an operator, "&&" is not. */
	if (c->pos < c->len && c->expr[c->pos] == '&' &&
	    (c->pos + 1 >= c->len || c->expr[c->pos + 1] != '&')) {
		c->pos++;
		return RTF_OP_BITS;
	}
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (rtf_accept(c, ops[i].tok))
			return ops[i].op;
	return rtf_fail(c, c->pos,
			"expected an operator: == != < <= > >= & or ~");
}

/* A value token: a quoted string, or everything up to a space or ) & | */
static int rtf_parse_token(struct rtf_compiler *c, unsigned int *start,
			   unsigned int *end, bool *quoted)
{
	char quote;

	rtf_skip_space(c);
	*start = c->pos;
	*quoted = false;
	if (c->pos < c->len &&
	    (c->expr[c->pos] == '"' || c->expr[c->pos] == '\'')) {
		quote = c->expr[c->pos++];
		*start = c->pos;
		while (c->pos < c->len && c->expr[c->pos] != quote)
			c->pos++;
		if (c->pos >= c->len)
			return rtf_fail(c, *start - 1, "unterminated string");
		*end = c->pos++;
		*quoted = true;
		return 0;
	}
	while (c->pos < c->len && !isspace(c->expr[c->pos]) &&
	       !strchr(")&|", c->expr[c->pos]))
		c->pos++;
	*end = c->pos;
	if (*end == *start)
		return rtf_fail(c, *start, "expected a value");
	return 0;
}

static int rtf_parse_number(struct rtf_compiler *c, const struct rtf_field *f,
			    unsigned int start, unsigned int end, u64 *value)
{
	char buf[24];
	s64 sval;
	u64 uval;
	int bits = f->size * 8;

	if (end - start >= sizeof(buf))
		return rtf_fail(c, start, "not a number");
	memcpy(buf, c->expr + start, end - start);
	buf[end - start] = '\0';
	if (buf[0] == '-') {
		if (kstrtos64(buf, 0, &sval))
			return rtf_fail(c, start, "not a number");
		if (!f->is_signed ||
		    (bits < 64 && sval < -(1LL << (bits - 1))))
			return rtf_fail(c, start, "value out of range for the field");
		*value = sval;
		return 0;
	}
	if (kstrtou64(buf, 0, &uval))
		return rtf_fail(c, start, "not a number");
	if (bits < 64 && uval > (f->is_signed ? (1ULL << (bits - 1)) - 1 :
						 (1ULL << bits) - 1))
		return rtf_fail(c, start, "value out of range for the field");
	if (bits == 64 && f->is_signed && uval > S64_MAX)
		return rtf_fail(c, start, "value out of range for the field");
	*value = uval;
	return 0;
}

static int rtf_parse_pred(struct rtf_compiler *c)
{
	const struct rtf_field *f;
	struct rtf_pred *p;
	unsigned int op_pos, start, end;
	bool quoted;
	int op, ret;

	f = rtf_parse_field(c);
	if (!f)
		return -EINVAL;
	rtf_skip_space(c);
	op_pos = c->pos;
	op = rtf_parse_op(c);
	if (op < 0)
		return op;
	if (f->is_string && op != RTF_OP_EQ && op != RTF_OP_NE &&
	    op != RTF_OP_GLOB)
		return rtf_fail(c, op_pos, "strings compare with == != or ~ only");
	if (!f->is_string && op == RTF_OP_GLOB)
		return rtf_fail(c, op_pos, "~ compares strings only");
	ret = rtf_parse_token(c, &start, &end, &quoted);
	if (ret)
		return ret;
	if (c->nr_preds >= c->max_preds)
		return rtf_fail(c, start, "expression too complex");

	p = &c->preds[c->nr_preds];
	p->offset = f->offset;
	p->size = f->size;
	p->op = op;
	p->is_signed = f->is_signed;
	p->is_string = f->is_string;
	p->is_dynamic = f->is_dynamic;
	if (f->is_string) {
		p->str = c->str_size;
		p->str_len = end - start;
		memcpy(c->strings + c->str_size, c->expr + start, end - start);
		c->str_size += end - start;
	} else {
		if (quoted)
			return rtf_fail(c, start - 1, "expected a number");
		ret = rtf_parse_number(c, f, start, end, &p->value);
		if (ret)
			return ret;
	}
	return rtf_emit(c, RTF_INSN_PRED, c->nr_preds++);
}

static int rtf_parse_or(struct rtf_compiler *c);

static int rtf_parse_unary(struct rtf_compiler *c)
{
	unsigned int pos;
	int ret;

	rtf_skip_space(c);
	pos = c->pos;
	if (pos >= c->len)
		return rtf_fail(c, pos, "expected a predicate");
	if (c->expr[pos] != '!' && c->expr[pos] != '(')
		return rtf_parse_pred(c);

	if (++c->depth > RTF_MAX_DEPTH)
		return rtf_fail(c, pos, "expression nested too deeply");
	c->pos++;
	if (c->expr[pos] == '!') {
		ret = rtf_parse_unary(c);
		if (!ret)
			ret = rtf_emit(c, RTF_INSN_NOT, 0);
	} else {
		ret = rtf_parse_or(c);
		if (!ret && !rtf_accept(c, ")"))
			ret = rtf_fail(c, c->pos, "expected )");
	}
	c->depth--;
	return ret;
}

static int rtf_parse_and(struct rtf_compiler *c)
{
	int ret = rtf_parse_unary(c);

	while (!ret && rtf_accept(c, "&&")) {
		ret = rtf_parse_unary(c);
		if (!ret)
			ret = rtf_emit(c, RTF_INSN_AND, 0);
	}
	return ret;
}

static int rtf_parse_or(struct rtf_compiler *c)
{
	int ret = rtf_parse_and(c);

	while (!ret && rtf_accept(c, "||")) {
		ret = rtf_parse_and(c);
		if (!ret)
			ret = rtf_emit(c, RTF_INSN_OR, 0);
	}
	return ret;
}

static struct rtf_prog *rtf_build(struct rtf_compiler *c)
{
	struct rtf_prog *prog;

	prog = kzalloc(sizeof(*prog), GFP_KERNEL);
	if (!prog)
		return NULL;
	prog->nr_insns = c->nr_insns;
	prog->insns = kmemdup(c->insns, c->nr_insns * sizeof(*c->insns),
			      GFP_KERNEL);
	prog->preds = kmemdup(c->preds, c->nr_preds * sizeof(*c->preds),
			      GFP_KERNEL);
	prog->strings = kmemdup(c->strings, c->str_size ?: 1, GFP_KERNEL);
	if (!prog->insns || !prog->preds || !prog->strings) {
		rtf_free(prog);
		return NULL;
	}
	return prog;
}

/**
 * rtf_compile() - compile a filter expression
 * @expr: the expression, NUL-terminated
 * @fields: the fields it may name (aliases are more entries)
 * @nr_fields: entries in @fields
 * @err: on -EINVAL, where and why the expression was refused
 *
 * May sleep.
 *
 * Return: the program, ERR_PTR(-EINVAL) for a bad expression (with @err
 * filled in) or ERR_PTR(-ENOMEM).
 */
struct rtf_prog *rtf_compile(const char *expr,
			     const struct rtf_field *fields,
			     unsigned int nr_fields, struct rtf_error *err)
{
	struct rtf_compiler c = {
		.expr = expr,
		.fields = fields,
		.nr_fields = nr_fields,
		.err = err,
	};
	struct rtf_prog *prog = ERR_PTR(-ENOMEM);
	int ret;

	c.len = strnlen(expr, RTF_MAX_EXPR + 1);
	if (c.len > RTF_MAX_EXPR) {
		rtf_fail(&c, RTF_MAX_EXPR, "expression too long");
		return ERR_PTR(-EINVAL);
	}
	/* Every predicate takes three characters at least ("a<1"). */
	c.max_preds = c.len / 3 + 1;
	c.max_insns = c.len + 2 * c.max_preds + 2;
	c.insns = kmalloc_array(c.max_insns, sizeof(*c.insns), GFP_KERNEL);
	c.preds = kmalloc_array(c.max_preds, sizeof(*c.preds), GFP_KERNEL);
	c.strings = kmalloc(c.len + 1, GFP_KERNEL);
	if (!c.insns || !c.preds || !c.strings)
		goto out;

	rtf_skip_space(&c);
	if (c.pos == c.len) {
		rtf_fail(&c, c.pos, "empty filter");
		ret = -EINVAL;
	} else {
		ret = rtf_parse_or(&c);
	}
	if (!ret) {
		rtf_skip_space(&c);
		if (c.pos < c.len)
			ret = rtf_fail(&c, c.pos, c.expr[c.pos] == ')' ?
				       "unbalanced )" : "expected && or ||");
	}
	prog = ret ? ERR_PTR(ret) : rtf_build(&c) ?: ERR_PTR(-ENOMEM);
out:
	kfree(c.insns);
	kfree(c.preds);
	kfree(c.strings);
	return prog;
}
EXPORT_SYMBOL_GPL(rtf_compile);

/**
 * rtf_free() - free a compiled filter
 * @prog: the program, or NULL
 */
void rtf_free(struct rtf_prog *prog)
{
	if (IS_ERR_OR_NULL(prog))
		return;
	kfree(prog->insns);
	kfree(prog->preds);
	kfree(prog->strings);
	kfree(prog);
}
EXPORT_SYMBOL_GPL(rtf_free);

/* Glob match of @pat against @str (* and ?), neither NUL-terminated. */
static bool rtf_glob(const char *pat, unsigned int plen, const char *str,
		     unsigned int slen)
{
	unsigned int p = 0, s = 0, star_p = UINT_MAX, star_s = 0;

	while (s < slen) {
		if (p < plen && (pat[p] == '?' || pat[p] == str[s])) {
			p++;
			s++;
		} else if (p < plen && pat[p] == '*') {
			star_p = p++;
			star_s = s;
		} else if (star_p != UINT_MAX) {
			p = star_p + 1;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
}

/**
 * rtf_load() - the value of an integer field of a record
 * @field: where the field is in the record (any alignment)
 * @size: its bytes: 1, 2, 4 or 8
 * @is_signed: sign-extend it
 *
 * Return: the value, as a u64.
 */
u64 rtf_load(const void *field, unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (u64)(s64)*(const s8 *)field :
				   *(const u8 *)field;
	case 2:
		return is_signed ? (u64)(s64)(s16)get_unaligned((const u16 *)field) :
				   get_unaligned((const u16 *)field);
	case 4:
		return is_signed ? (u64)(s64)(s32)get_unaligned((const u32 *)field) :
				   get_unaligned((const u32 *)field);
	default:
		return get_unaligned((const u64 *)field);
	}
}

/* The ordering operators, from "greater" and "equal". */
static bool rtf_order(bool greater, bool equal, u8 op)
{
	switch (op) {
	case RTF_OP_LT:
		return !greater && !equal;
	case RTF_OP_LE:
		return !greater;
	case RTF_OP_GT:
		return greater;
	default:
		return greater || equal;
	}
}

static bool rtf_pred_match(const struct rtf_prog *prog,
			   const struct rtf_pred *p, const void *record,
			   unsigned int size)
{
	const void *field = record + p->offset;
	const char *pat = prog->strings + p->str;
	unsigned int len;
	bool eq;
	u64 v;

	if (p->offset + p->size > size)
		return false;
	if (p->is_dynamic) {
		u32 loc = get_unaligned((const u32 *)field);

		/* __data_loc: the text's offset and length in the record. */
		if ((loc & 0xffff) + (loc >> 16) > size)
			return false;
		field = record + (loc & 0xffff);
		len = strnlen(field, loc >> 16);
		if (p->op == RTF_OP_GLOB)
			return rtf_glob(pat, p->str_len, field, len);
		eq = len == p->str_len && !memcmp(field, pat, len);
		return p->op == RTF_OP_EQ ? eq : !eq;
	}
	if (p->is_string) {
		/* Size 0: the string runs to the end of the record. */
		len = strnlen(field, p->size ?: size - p->offset);
		if (p->op == RTF_OP_GLOB)
			return rtf_glob(pat, p->str_len, field, len);
		eq = len == p->str_len && !memcmp(field, pat, len);
		return p->op == RTF_OP_EQ ? eq : !eq;
	}

	v = rtf_load(field, p->size, p->is_signed);
	switch (p->op) {
	case RTF_OP_EQ:
		return v == p->value;
	case RTF_OP_NE:
		return v != p->value;
	case RTF_OP_BITS:
		return v & p->value;
	default:
		break;
	}
	if (p->is_signed)
		return rtf_order((s64)v > (s64)p->value, v == p->value, p->op);
	return rtf_order(v > p->value, v == p->value, p->op);
}

/**
 * rtf_match() - run a compiled filter on a record
 * @prog: the program; NULL (no filter) matches everything
 * @record: the record
 * @size: its size in bytes: fields beyond it do not match
 *
 * Any context: allocates nothing, takes no lock.
 *
 * Return: true if the record passes the filter.
 */
bool rtf_match(const struct rtf_prog *prog, const void *record,
	       unsigned int size)
{
	u64 stack = 0, top;
	unsigned int i;

	if (!prog)
		return true;
	for (i = 0; i < prog->nr_insns; i++) {
		const struct rtf_insn *insn = &prog->insns[i];

		switch (insn->kind) {
		case RTF_INSN_PRED:
			stack = stack << 1 |
				rtf_pred_match(prog, &prog->preds[insn->pred],
					       record, size);
			break;
		case RTF_INSN_NOT:
			stack ^= 1;
			break;
		case RTF_INSN_AND:
			top = stack & 1;
			stack >>= 1;
			stack &= ~1ULL | top;
			break;
		case RTF_INSN_OR:
			top = stack & 1;
			stack >>= 1;
			stack |= top;
			break;
		}
	}
	return stack & 1;
}
EXPORT_SYMBOL_GPL(rtf_match);
