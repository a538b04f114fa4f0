// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ringtrace tracing directory.
 *
 * Verifies that ringtrace owns debugfs's "tracing" directory, that the files
 * made through ringtrace_add_file() are root-only, and that README lists
 * exactly the files that exist.  Observes the directory through debugfs
 * lookups and renders README into a private seq_file buffer, so it needs no
 * mounted debugfs and no user memory.
 */

#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "dir.h"

#define README_BUF_SIZE		PAGE_SIZE
#define TEST_FILE_NAME		"kunit_test_file"
#define TEST_FILE_HELP		"a file made by the KUnit suite"

static const struct file_operations test_fops;

/* Render README as a reader would see it; the text stays in the test. */
static const char *render_readme(struct kunit *test)
{
	struct seq_file *m;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->size = README_BUF_SIZE;
	m->buf = kunit_kzalloc(test, m->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);

	KUNIT_ASSERT_EQ(test, ringtrace_readme_show(m, NULL), 0);
	KUNIT_ASSERT_FALSE_MSG(test, seq_has_overflowed(m),
			       "README does not fit in %zu bytes", m->size);
	m->buf[m->count] = '\0';
	return m->buf;
}

static void test_dir_is_debugfs_tracing(struct kunit *test)
{
	struct dentry *dir = ringtrace_dir();
	struct dentry *found;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dir);
	found = debugfs_lookup("tracing", NULL);
	KUNIT_EXPECT_PTR_EQ(test, found, dir);
	dput(found);
	KUNIT_EXPECT_TRUE(test, d_is_dir(dir));
}

static void test_readme_is_root_only(struct kunit *test)
{
	struct dentry *readme;
	struct inode *inode;

	readme = debugfs_lookup("README", ringtrace_dir());
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, readme);
	inode = d_inode(readme);
	KUNIT_EXPECT_EQ(test, inode->i_mode & 0777, 0400);
	KUNIT_EXPECT_TRUE(test, uid_eq(inode->i_uid, GLOBAL_ROOT_UID));
	dput(readme);
}

static void test_readme_names_the_directory(struct kunit *test)
{
	const char *text = render_readme(test);

	KUNIT_EXPECT_TRUE(test, str_has_prefix(text, "ringtrace tracing directory"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, RINGTRACE_DIR_PATH));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\n  README "));
}

static void test_added_file_is_listed_until_removed(struct kunit *test)
{
	struct dentry *file, *found;

	file = ringtrace_add_file(TEST_FILE_NAME, 0400, NULL, NULL, &test_fops,
				  TEST_FILE_HELP);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);

	found = debugfs_lookup(TEST_FILE_NAME, ringtrace_dir());
	KUNIT_EXPECT_PTR_EQ(test, found, file);
	dput(found);
	KUNIT_EXPECT_NOT_NULL(test, strstr(render_readme(test), TEST_FILE_HELP));

	ringtrace_remove_file(file);
	found = debugfs_lookup(TEST_FILE_NAME, ringtrace_dir());
	KUNIT_EXPECT_NULL(test, found);
	dput(found);
	KUNIT_EXPECT_NULL(test, strstr(render_readme(test), TEST_FILE_HELP));
}

static void test_file_without_help_is_not_listed(struct kunit *test)
{
	struct dentry *file;

	file = ringtrace_add_file(TEST_FILE_NAME, 0600, NULL, NULL, &test_fops,
				  NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	KUNIT_EXPECT_NULL(test, strstr(render_readme(test), TEST_FILE_NAME));
	ringtrace_remove_file(file);
}

static void test_add_file_rejects_group_or_other_access(struct kunit *test)
{
	static const umode_t bad_modes[] = { 0644, 0440, 0604, 0700, 04400 };
	struct dentry *file, *found;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_modes); i++) {
		file = ringtrace_add_file(TEST_FILE_NAME, bad_modes[i], NULL,
					  NULL, &test_fops, TEST_FILE_HELP);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(file), -EINVAL,
				    "mode %04o", bad_modes[i]);
	}
	found = debugfs_lookup(TEST_FILE_NAME, ringtrace_dir());
	KUNIT_EXPECT_NULL(test, found);
	dput(found);
}

static void test_add_file_rejects_bad_names(struct kunit *test)
{
	static const char * const bad_names[] = { "", "a/b", "/" };
	struct dentry *file;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_names); i++) {
		file = ringtrace_add_file(bad_names[i], 0400, NULL, NULL,
					  &test_fops, TEST_FILE_HELP);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(file), -EINVAL,
				    "name \"%s\"", bad_names[i]);
	}
	KUNIT_EXPECT_NULL(test, strstr(render_readme(test), TEST_FILE_HELP));
}

static void test_add_file_rejects_duplicate(struct kunit *test)
{
	struct dentry *file, *again;

	file = ringtrace_add_file(TEST_FILE_NAME, 0400, NULL, NULL, &test_fops,
				  TEST_FILE_HELP);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	again = ringtrace_add_file(TEST_FILE_NAME, 0400, NULL, NULL, &test_fops,
				   "a second help line");
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(again), -EEXIST);
	KUNIT_EXPECT_NULL(test, strstr(render_readme(test), "a second help line"));
	ringtrace_remove_file(file);
}

static void test_readme_lists_files_sorted(struct kunit *test)
{
	struct dentry *late, *early;
	const char *text, *pos_late, *pos_early;

	late = ringtrace_add_file("zz_kunit_late", 0400, NULL, NULL, &test_fops,
				  "added first, sorts last");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, late);
	early = ringtrace_add_file("aa_kunit_early", 0400, NULL, NULL,
				   &test_fops, "added second, sorts first");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, early);

	text = render_readme(test);
	pos_late = strstr(text, "zz_kunit_late");
	pos_early = strstr(text, "aa_kunit_early");
	KUNIT_EXPECT_NOT_NULL(test, pos_late);
	KUNIT_EXPECT_NOT_NULL(test, pos_early);
	if (pos_late && pos_early)
		KUNIT_EXPECT_LT(test, pos_early - text, pos_late - text);

	ringtrace_remove_file(early);
	ringtrace_remove_file(late);
}

static struct kunit_case ringtrace_dir_test_cases[] = {
	KUNIT_CASE(test_dir_is_debugfs_tracing),
	KUNIT_CASE(test_readme_is_root_only),
	KUNIT_CASE(test_readme_names_the_directory),
	KUNIT_CASE(test_added_file_is_listed_until_removed),
	KUNIT_CASE(test_file_without_help_is_not_listed),
	KUNIT_CASE(test_add_file_rejects_group_or_other_access),
	KUNIT_CASE(test_add_file_rejects_bad_names),
	KUNIT_CASE(test_add_file_rejects_duplicate),
	KUNIT_CASE(test_readme_lists_files_sorted),
	{}
};

static struct kunit_suite ringtrace_dir_test_suite = {
	.name = "ringtrace_dir",
	.test_cases = ringtrace_dir_test_cases,
};

kunit_test_suite(ringtrace_dir_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the ringtrace tracing directory");
MODULE_LICENSE("GPL");
