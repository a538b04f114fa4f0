// SPDX-License-Identifier: GPL-2.0
/*
 * The ringtrace tracing directory: /sys/kernel/debug/tracing.
 *
 * ringtrace owns the directory (it cannot be built with CONFIG_TRACING, the
 * other claimant).  Every control file in it is made by ringtrace_add_file(),
 * which enforces the one policy all of them share, root-only access, and
 * records the file's help line.  The README is generated from those records
 * when it is opened, so it always describes the files that exist.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <kunit/visibility.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dir.h"

/* Any access bits beyond the owner's would let unprivileged users in. */
#define RINGTRACE_FILE_MODE_MASK	0600

/**
 * struct ringtrace_file - a control file made by ringtrace_add_file()
 * @node:	entry in ringtrace_files, sorted by @path
 * @dentry:	the debugfs file
 * @path:	path below the tracing directory, shown in README
 * @help:	one line for README, or NULL to leave the file out of it
 */
struct ringtrace_file {
	struct list_head node;
	struct dentry *dentry;
	char *path;
	const char *help;
};

static struct dentry *ringtrace_root;
/*
 * options/: the components' 0/1 switches (trace_files.c's,
 * kprobe_events.c's, ...).
 */
static struct dentry *ringtrace_options;

/* Protects ringtrace_files; taken when files come and go and by README. */
static DEFINE_MUTEX(ringtrace_files_lock);
static LIST_HEAD(ringtrace_files);

static const char ringtrace_readme_intro[] =
	"ringtrace tracing directory (" RINGTRACE_DIR_PATH ")\n"
	"\n"
	"This directory belongs to ringtrace, a tracing subsystem built on one\n"
	"per-CPU lockless ring buffer.  Every file in it is readable and\n"
	"writable by root only.  Documentation/trace/ringtrace.rst describes\n"
	"the directory in full.\n"
	"\n"
	"Files:\n";

/**
 * ringtrace_dir() - the dentry of the tracing directory
 *
 * Context: any; the directory lives as long as the kernel.
 * Return: the directory, or NULL if it could not be created at boot.
 */
struct dentry *ringtrace_dir(void)
{
	return ringtrace_root;
}
EXPORT_SYMBOL_GPL(ringtrace_dir);

/**
 * ringtrace_options_dir() - the dentry of options/ in the tracing directory
 *
 * Where components put their options (ringtrace_add_file() with it as the
 * parent), so that none needs to find another's directory by name.
 *
 * Context: any; the directory lives as long as the kernel.
 * Return: the directory, or NULL if it could not be created at boot.
 */
struct dentry *ringtrace_options_dir(void)
{
	return ringtrace_options;
}

/* @name's path below the tracing directory, for README. */
static char *ringtrace_file_path(const char *name, struct dentry *parent)
{
	char *path = kstrdup(name, GFP_KERNEL), *longer;
	struct dentry *dir;

	/*
	 * @parent and the directories above it live while a file is added
	 * under them (no component removes a directory it may still add a
	 * file in), and ours are never renamed: the walk needs no locking.
	 */
	for (dir = parent; path && dir && dir != ringtrace_root;
	     dir = dir->d_parent) {
		longer = kasprintf(GFP_KERNEL, "%pd/%s", dir, path);
		kfree(path);
		path = longer;
	}
	return path;
}

/* Insert @new keeping the list sorted, or refuse a path already present. */
static int ringtrace_file_insert(struct ringtrace_file *new)
{
	struct ringtrace_file *file;
	int cmp;

	list_for_each_entry(file, &ringtrace_files, node) {
		cmp = strcmp(new->path, file->path);
		if (!cmp)
			return -EEXIST;
		if (cmp < 0)
			break;
	}
	list_add_tail(&new->node, &file->node);
	return 0;
}

static struct dentry *__ringtrace_add_file(const char *name, umode_t mode,
					   struct dentry *parent, void *data,
					   const struct file_operations *fops,
					   const char *help, bool raw)
{
	struct ringtrace_file *file;
	struct dentry *dentry;
	int err;

	if (!ringtrace_root)
		return ERR_PTR(-ENODEV);
	if (!*name || strchr(name, '/') || (mode & ~RINGTRACE_FILE_MODE_MASK))
		return ERR_PTR(-EINVAL);

	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return ERR_PTR(-ENOMEM);
	file->help = help;
	file->path = ringtrace_file_path(name, parent);
	if (!file->path) {
		err = -ENOMEM;
		goto err_free_file;
	}

	mutex_lock(&ringtrace_files_lock);
	err = ringtrace_file_insert(file);
	if (err)
		goto err_unlock;
	if (raw)
		dentry = debugfs_create_file_unsafe(name, S_IFREG | mode,
						    parent ?: ringtrace_root,
						    data, fops);
	else
		dentry = debugfs_create_file(name, S_IFREG | mode,
					     parent ?: ringtrace_root, data,
					     fops);
	if (IS_ERR(dentry)) {
		err = PTR_ERR(dentry);
		list_del(&file->node);
		goto err_unlock;
	}
	file->dentry = dentry;
	mutex_unlock(&ringtrace_files_lock);
	return dentry;

err_unlock:
	mutex_unlock(&ringtrace_files_lock);
	kfree(file->path);
err_free_file:
	kfree(file);
	return ERR_PTR(err);
}

/**
 * ringtrace_add_file() - create a root-only control file in the tracing tree
 * @name:	file name; must not contain '/'
 * @mode:	access mode; only the owner's read and write bits are allowed
 * @parent:	directory below the tracing directory, or NULL for the top
 * @data:	stored in the inode's i_private for @fops
 * @fops:	the file's operations
 * @help:	one line describing the file in README, or NULL for none
 *
 * @help is not copied: it must outlive the file (a string literal does).
 *
 * Context: process context; may sleep.
 * Return: the new file's dentry, or an ERR_PTR(): -EINVAL for a bad name or
 * a mode granting group or other access, -EEXIST if the file exists,
 * -ENODEV if the tracing directory is missing, -ENOMEM.
 */
struct dentry *ringtrace_add_file(const char *name, umode_t mode,
				  struct dentry *parent, void *data,
				  const struct file_operations *fops,
				  const char *help)
{
	return __ringtrace_add_file(name, mode, parent, data, fops, help,
				    false);
}
EXPORT_SYMBOL_GPL(ringtrace_add_file);

/**
 * ringtrace_add_raw_file() - ringtrace_add_file() for a file needing splice
 * @name:	file name; must not contain '/'
 * @mode:	access mode; only the owner's read and write bits are allowed
 * @parent:	directory below the tracing directory, or NULL for the top
 * @data:	stored in the inode's i_private for @fops
 * @fops:	the file's operations, used as they are
 * @help:	one line describing the file in README, or NULL for none
 *
 * debugfs_create_file() wraps @fops in a proxy that protects against the
 * file's removal but drops splice_read and mmap.  This variant keeps @fops
 * whole: the caller guarantees that the file is never removed while
 * opened, or protects itself.
 *
 * Context: process context; may sleep.
 * Return: as ringtrace_add_file().
 */
struct dentry *ringtrace_add_raw_file(const char *name, umode_t mode,
				      struct dentry *parent, void *data,
				      const struct file_operations *fops,
				      const char *help)
{
	return __ringtrace_add_file(name, mode, parent, data, fops, help,
				    true);
}
EXPORT_SYMBOL_GPL(ringtrace_add_raw_file);

/**
 * ringtrace_add_dir() - create a directory in the tracing tree
 * @name:	directory name; must not contain '/'
 * @parent:	directory below the tracing directory, or NULL for the top
 *
 * Context: process context; may sleep.
 * Return: the directory's dentry, or an ERR_PTR(): -EINVAL for a bad name,
 * -ENODEV if the tracing directory is missing, -EEXIST, -ENOMEM.
 */
struct dentry *ringtrace_add_dir(const char *name, struct dentry *parent)
{
	if (!ringtrace_root)
		return ERR_PTR(-ENODEV);
	if (!*name || strchr(name, '/'))
		return ERR_PTR(-EINVAL);
	return debugfs_create_dir(name, parent ?: ringtrace_root);
}
EXPORT_SYMBOL_GPL(ringtrace_add_dir);

/**
 * ringtrace_strip() - trim blanks around a control file's text, in place
 * @text:	a NUL-terminated string; stays at @text (it may be kfree()d)
 *
 * strim() returns a pointer past leading blanks: callers that keep or free
 * the buffer want the text at its start.
 */
void ringtrace_strip(char *text)
{
	char *stripped = strim(text);

	memmove(text, stripped, strlen(stripped) + 1);
}
EXPORT_SYMBOL_GPL(ringtrace_strip);

/**
 * ringtrace_remove_file() - remove a file made by ringtrace_add_file()
 * @dentry:	the dentry ringtrace_add_file() returned; NULL or an error
 *		pointer is ignored
 *
 * After return no new open of the file succeeds and every running file
 * operation has finished (debugfs's removal guarantee).
 *
 * Context: process context; may sleep.
 */
void ringtrace_remove_file(struct dentry *dentry)
{
	struct ringtrace_file *file;

	if (IS_ERR_OR_NULL(dentry))
		return;

	mutex_lock(&ringtrace_files_lock);
	list_for_each_entry(file, &ringtrace_files, node) {
		if (file->dentry == dentry) {
			list_del(&file->node);
			mutex_unlock(&ringtrace_files_lock);
			debugfs_remove(dentry);
			kfree(file->path);
			kfree(file);
			return;
		}
	}
	mutex_unlock(&ringtrace_files_lock);
	WARN(1, "ringtrace: removing a file it did not create: %pd\n", dentry);
}
EXPORT_SYMBOL_GPL(ringtrace_remove_file);

/**
 * ringtrace_remove_tree() - remove a directory made by ringtrace_add_dir()
 * @dir:	the directory; NULL or an error pointer is ignored
 *
 * Removes everything below it too, files made by ringtrace_add_file()
 * included (they leave README), with debugfs's removal guarantee.
 *
 * Context: process context; may sleep.
 */
void ringtrace_remove_tree(struct dentry *dir)
{
	struct ringtrace_file *file, *tmp;
	char *prefix;
	size_t len;

	if (IS_ERR_OR_NULL(dir))
		return;
	prefix = ringtrace_file_path("", dir);
	mutex_lock(&ringtrace_files_lock);
	if (prefix) {
		len = strlen(prefix);
		list_for_each_entry_safe(file, tmp, &ringtrace_files, node) {
			if (strncmp(file->path, prefix, len))
				continue;
			list_del(&file->node);
			kfree(file->path);
			kfree(file);
		}
	}
	mutex_unlock(&ringtrace_files_lock);
	kfree(prefix);
	debugfs_remove(dir);
}
EXPORT_SYMBOL_GPL(ringtrace_remove_tree);

/* Visible to KUnit so the suite can render README into a buffer of its own. */
VISIBLE_IF_KUNIT int ringtrace_readme_show(struct seq_file *m, void *unused)
{
	struct ringtrace_file *file;

	seq_puts(m, ringtrace_readme_intro);
	mutex_lock(&ringtrace_files_lock);
	list_for_each_entry(file, &ringtrace_files, node)
		if (file->help)
			seq_printf(m, "  %-24s %s\n", file->path, file->help);
	mutex_unlock(&ringtrace_files_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ringtrace_readme_show);

DEFINE_SHOW_ATTRIBUTE(ringtrace_readme);

static int __init ringtrace_dir_init(void)
{
	struct dentry *root, *readme, *options;

	root = debugfs_create_dir("tracing", NULL);
	if (IS_ERR(root)) {
		pr_err("cannot create the tracing directory: %pe\n", root);
		return PTR_ERR(root);
	}
	ringtrace_root = root;
	options = ringtrace_add_dir("options", NULL);
	if (IS_ERR(options))
		pr_err("cannot create options/: %pe\n", options);
	else
		ringtrace_options = options;

	readme = ringtrace_add_file("README", 0400, NULL, NULL,
				    &ringtrace_readme_fops,
				    "what this directory is and what each file does");
	if (IS_ERR(readme))
		pr_err("cannot create README: %pe\n", readme);
	return 0;
}
fs_initcall(ringtrace_dir_init);
