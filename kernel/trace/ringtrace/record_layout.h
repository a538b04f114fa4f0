/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the folder's readers of pages need from the record layout beyond
 * <linux/ringtrace_buffer.h>: records of pages not trusted, and pages as
 * readers outside the kernel expect them (record_layout.c).
 */
#ifndef _RINGTRACE_RECORD_LAYOUT_H
#define _RINGTRACE_RECORD_LAYOUT_H

#include <linux/ringtrace_buffer.h>
#include <linux/types.h>

/* Room for events/header_page's or header_event's text. */
#define RTB_HEADER_TEXT_MAX	320

unsigned int rtb_event_decode(const struct rtb_event *event, unsigned int room,
			      unsigned int *type, u64 *delta);
void rtb_page_to_current_layout(struct rtb_data_page *page);
int rtb_header_page_text(char *buf, size_t size);
int rtb_header_event_text(char *buf, size_t size);

#endif /* _RINGTRACE_RECORD_LAYOUT_H */
