// SPDX-License-Identifier: GPL-2.0
/*
 * Scribbles on the persistent trace buffer's region as the kernel ends,
 * after ringtrace sealed it: what a stray write or a memory error would
 * leave for the next boot, which must then discard the region cleanly
 * (Documentation/trace/ringtrace-flight-recorder.rst).  A test machine's
 * module only.
 *
 *   insmod ringtrace_persist_scribble.ko phys=0x30000000 what=page
 *
 * what=header flips a byte of the header's kernel name, what=formats one
 * of the event formats, what=page one of the records of the first data
 * page holding some.  It runs from its own panic and reboot notifiers,
 * registered after ringtrace's at the same lowest priority, so after the
 * seal.
 */

#include <linux/init.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/reboot.h>
#include <linux/ringtrace_buffer.h>
#include <linux/ringtrace_persist.h>
#include <linux/string.h>

static unsigned long phys;
module_param(phys, ulong, 0400);
MODULE_PARM_DESC(phys, "ADDR of ringtrace.persist=SIZE@ADDR");

static char *what = "page";
module_param(what, charp, 0400);
MODULE_PARM_DESC(what, "header, formats or page");

static struct rtp_header *scribble_region;

/* The first data page with records, or NULL. */
static struct rtb_data_page *scribble_find_page(struct rtp_header *h)
{
	unsigned long nr = (unsigned long)h->nr_cpus * h->slice_pages, i;
	struct rtb_data_page *page;

	for (i = 0; i < nr; i++) {
		page = (void *)h + (h->meta_pages + i) * PAGE_SIZE;
		if (page->commit >= 16 && page->commit <= RTB_PAGE_DATA_SIZE)
			return page;
	}
	return NULL;
}

static void scribble_flip(void)
{
	struct rtp_header *h = scribble_region;
	struct rtb_data_page *page;
	char *p = NULL;

	if (!strcmp(what, "header")) {
		p = &h->kernel[0];
	} else if (!strcmp(what, "formats")) {
		if (h->formats_len)
			p = (char *)h + h->formats_off + h->formats_len / 2;
	} else {
		page = scribble_find_page(h);
		if (page)
			p = (char *)&page->data[page->commit / 2];
	}
	if (!p) {
		pr_emerg("ringtrace_persist_scribble: nothing to scribble on (%s)\n",
			 what);
		return;
	}
	*p ^= 0x5a;
	pr_emerg("ringtrace_persist_scribble: flipped a byte of the %s\n",
		 what);
}

static int scribble_notify(struct notifier_block *nb, unsigned long event,
			   void *unused)
{
	scribble_flip();
	return NOTIFY_DONE;
}

static struct notifier_block scribble_panic_nb = {
	.notifier_call	= scribble_notify,
	.priority	= INT_MIN,
};

static struct notifier_block scribble_reboot_nb = {
	.notifier_call	= scribble_notify,
	.priority	= INT_MIN,
};

static int __init scribble_init(void)
{
	if (!phys || !PAGE_ALIGNED(phys))
		return -EINVAL;
	scribble_region = phys_to_virt(phys);
	if (scribble_region->magic != RTP_MAGIC) {
		pr_err("ringtrace_persist_scribble: no persistent region at %#lx\n",
		       phys);
		return -ENODEV;
	}
	atomic_notifier_chain_register(&panic_notifier_list,
				       &scribble_panic_nb);
	register_reboot_notifier(&scribble_reboot_nb);
	return 0;
}

static void __exit scribble_exit(void)
{
	unregister_reboot_notifier(&scribble_reboot_nb);
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &scribble_panic_nb);
}

module_init(scribble_init);
module_exit(scribble_exit);
MODULE_DESCRIPTION("Scribbles on ringtrace's persistent region after its seal");
MODULE_LICENSE("GPL");
