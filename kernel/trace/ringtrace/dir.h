/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace: the tracing directory shared by every ringtrace component.
 *
 * Components create their control files through ringtrace_add_file() so
 * that all of them are root-only and listed, with a line of help, in the
 * directory's README.
 */
#ifndef _RINGTRACE_DIR_H
#define _RINGTRACE_DIR_H

#include <linux/fs.h>
#include <linux/types.h>

struct dentry;
struct seq_file;

/* Where the tracing directory appears once debugfs is mounted. */
#define RINGTRACE_DIR_PATH	"/sys/kernel/debug/tracing"

struct dentry *ringtrace_dir(void);
struct dentry *ringtrace_options_dir(void);
struct dentry *ringtrace_add_file(const char *name, umode_t mode,
				  struct dentry *parent, void *data,
				  const struct file_operations *fops,
				  const char *help);
struct dentry *ringtrace_add_raw_file(const char *name, umode_t mode,
				      struct dentry *parent, void *data,
				      const struct file_operations *fops,
				      const char *help);
struct dentry *ringtrace_add_dir(const char *name, struct dentry *parent);
void ringtrace_remove_file(struct dentry *dentry);
void ringtrace_remove_tree(struct dentry *dir);
void ringtrace_strip(char *text);

#if IS_ENABLED(CONFIG_KUNIT)
int ringtrace_readme_show(struct seq_file *m, void *unused);
#endif

#endif /* _RINGTRACE_DIR_H */
