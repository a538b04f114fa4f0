// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace's set_event and available_events: the events as one list, in
 * the spelling tools written for ftrace use (trace-cmd list -e, scripts
 * that "echo sched:sched_switch >> set_event").
 *
 * available_events lists "system:event" for every event a user can turn
 * on and off; set_event lists the enabled ones.  A write to set_event holds
 * words separated by white space, each one of
 *
 *	SYSTEM:EVENT   SYSTEM:*   SYSTEM:   *:EVENT   *:*   WORD   *
 *
 * (a lone WORD names every event of that system and every event of that
 * name; a lone "*" all of them), and a word starting with '!' disables
 * what it names instead of enabling it.  Opening the file for writing with
 * O_TRUNC (the shell's ">") first disables every event, before anything
 * is written; ">>" adds.  A write is all or nothing: a word that names no
 * event fails it with -EINVAL and a line in error_log, and nothing
 * changes.  A lone "*" is ringtrace's (upstream matches it literally, so
 * nothing).  As upstream's, a write that ends inside a word (stdio cuts
 * long writes anywhere) leaves that word for the next write to finish,
 * or for close() to apply.
 *
 * The events' own lock (events_enable.c) guards all of it; these files
 * keep no state of their own.
 */

#include <kunit/visibility.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core.h"
#include "dir.h"

/* Most of a write taken at once: a page (a short write takes the rest). */
#define SET_EVENT_WRITE_MAX	PAGE_SIZE
/* Longest word: '!', two names of up to 63 bytes and the ':' between. */
#define SET_EVENT_WORD_MAX	128

/*
 * An open set_event file: the word its last write ended inside, which the
 * next write continues, or close() applies.
 */
struct set_event_file {
	struct mutex	lock;		/* the file's writes, one at a time */
	size_t		partial_len;
	char		partial[SET_EVENT_WORD_MAX + 1];
};

static int available_events_show(struct seq_file *m, void *v)
{
	ringtrace_events_show(m, false);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(available_events);

static int set_event_show(struct seq_file *m, void *v)
{
	ringtrace_events_show(m, true);
	return 0;
}

static int set_event_open(struct inode *inode, struct file *file)
{
	static const struct ringtrace_event_selector all_off = {};
	struct set_event_file *sf;
	int ret;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		ret = ringtrace_events_select(&all_off, 1, NULL);
		if (ret)
			return ret;
	}
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	mutex_init(&sf->lock);
	ret = single_open(file, set_event_show, sf);
	if (ret)
		kfree(sf);
	return ret;
}

/* "" and "*" name any system or event. */
static const char *any_if_star(const char *part)
{
	return *part && strcmp(part, "*") ? part : NULL;
}

/*
 * Turn @word (NUL-terminated, no white space) into @sel, which the caller
 * has zeroed.  Points into @word, which it may cut at the ':'.  Return: 0,
 * or -EINVAL for a word that names nothing ("!" alone, or a second ':').
 */
VISIBLE_IF_KUNIT int
ringtrace_set_event_parse(char *word, struct ringtrace_event_selector *sel)
{
	char *colon;

	sel->on = *word != '!';
	if (!sel->on)
		word++;
	if (!*word)
		return -EINVAL;
	colon = strchr(word, ':');
	if (!colon) {
		sel->either = any_if_star(word);
		return 0;
	}
	*colon = '\0';
	if (strchr(colon + 1, ':'))
		return -EINVAL;
	sel->system = any_if_star(word);
	sel->name = any_if_star(colon + 1);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ringtrace_set_event_parse);

/* Past the word that starts at @p (up to white space or the end). */
static char *word_end(char *p)
{
	while (*p && !isspace(*p))
		p++;
	return p;
}

/* Count the white-space separated words of @text. */
static unsigned int count_words(char *text)
{
	unsigned int n = 0;

	for (text = skip_spaces(text); *text; text = skip_spaces(word_end(text)))
		n++;
	return n;
}

/*
 * Apply the words of @text (NUL-terminated; cut in place).  Errors are
 * logged with the caret under the word.  Return: 0 or -errno.
 */
static int apply_words(char *text)
{
	struct ringtrace_event_selector *sel = NULL;
	unsigned int nr, i, unmatched;
	unsigned int *pos = NULL;
	char *p, *log;
	int ret = -ENOMEM;

	nr = count_words(text);
	if (!nr)
		return 0;
	/*
	 * The words are cut out of text in place: log from a copy, on one
	 * line (error_log shows a command up to its first newline), so that
	 * the caret stands under the word.
	 */
	log = kstrdup(text, GFP_KERNEL);
	sel = kcalloc(nr, sizeof(*sel), GFP_KERNEL);
	pos = kcalloc(nr, sizeof(*pos), GFP_KERNEL);
	if (!log || !sel || !pos)
		goto out;
	for (p = log; *p; p++) {
		if (isspace(*p))
			*p = ' ';
	}
	p = text;
	for (i = 0; i < nr; i++) {
		char *word;

		word = skip_spaces(p);
		p = word_end(word);
		if (*p)
			*p++ = '\0';
		pos[i] = word - text;
		ret = ringtrace_set_event_parse(word, &sel[i]);
		if (ret) {
			ringtrace_error_log("set_event", log, pos[i],
					    "not SYSTEM:EVENT, SYSTEM, EVENT or !one of them");
			goto out;
		}
	}
	ret = ringtrace_events_select(sel, nr, &unmatched);
	if (ret && unmatched < nr) {
		ringtrace_error_log("set_event", log, pos[unmatched],
				    "no event of that name or system");
		ret = -EINVAL;
	}
out:
	kfree(pos);
	kfree(sel);
	kfree(log);
	return ret;
}

static ssize_t set_event_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct set_event_file *sf =
		((struct seq_file *)file->private_data)->private;
	size_t len = min_t(size_t, count, SET_EVENT_WRITE_MAX);
	size_t total, tail = 0, i;
	char *text;
	int ret;

	mutex_lock(&sf->lock);
	/* The word the last write ended inside, then this write. */
	total = sf->partial_len + len;
	text = kmalloc(total + 1, GFP_KERNEL);
	ret = -ENOMEM;
	if (!text)
		goto unlock;
	memcpy(text, sf->partial, sf->partial_len);
	ret = -EFAULT;
	if (copy_from_user(text + sf->partial_len, ubuf, len))
		goto free;
	for (i = sf->partial_len; i < total; i++) {
		if (!text[i])
			text[i] = ' ';
	}
	text[total] = '\0';
	/* A word not ended by white space waits for the next write. */
	while (tail < total && !isspace(text[total - 1 - tail]))
		tail++;
	if (tail > SET_EVENT_WORD_MAX) {
		ringtrace_error_log("set_event", text, total - tail,
				    "word too long");
		ret = -EINVAL;
		goto free;
	}
	ret = 0;
	if (tail < total) {
		/* End the words before the tail at the white space before it. */
		text[total - tail - 1] = '\0';
		ret = apply_words(text);
	}
	if (!ret) {
		memcpy(sf->partial, text + total - tail, tail);
		sf->partial_len = tail;
	}
free:
	kfree(text);
unlock:
	mutex_unlock(&sf->lock);
	return ret ? ret : len;
}

/* A word left unfinished by the last write is complete now. */
static int set_event_release(struct inode *inode, struct file *file)
{
	struct set_event_file *sf =
		((struct seq_file *)file->private_data)->private;

	if (sf->partial_len) {
		sf->partial[sf->partial_len] = '\0';
		/* Too late to fail close(): error_log says what went wrong. */
		apply_words(sf->partial);
	}
	kfree(sf);
	return single_release(inode, file);
}

static const struct file_operations set_event_fops = {
	.open		= set_event_open,
	.read		= seq_read,
	.write		= set_event_write,
	.llseek		= seq_lseek,
	.release	= set_event_release,
};

static int __init ringtrace_set_event_init(void)
{
	ringtrace_add_file("available_events", 0400, NULL, NULL,
			   &available_events_fops,
			   "events that can be enabled, as SYSTEM:EVENT");
	ringtrace_add_file("set_event", 0600, NULL, NULL, &set_event_fops,
			   "enabled events; write [!]SYSTEM:EVENT, SYSTEM or EVENT");
	return 0;
}
late_initcall(ringtrace_set_event_init);
