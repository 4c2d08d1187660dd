# SPDX-License-Identifier: GPL-2.0
#
# tests/lib/lib.mk: the C test library for the guest programs' Makefiles.
#
#   include $(REPO)/tests/lib/lib.mk      (REPO: the repository's top)
#
#   $(O)/prog: prog.c $(ARBEL_LIB_DEPS)
#   	@mkdir -p $(O)
#   	$(ARBEL_CC) -static -o $@ prog.c $(ARBEL_LIB_SRCS)
#
# Programs compile the library's few sources with their own (no archive to
# share between Makefiles run in parallel).  Test programs are static
# binaries (-static); programs that link libibverbs are not.
#
#   ARBEL_LIB_DIR   this directory
#   ARBEL_LIB_SRCS  the library's .c files
#   ARBEL_LIB_DEPS  everything a program built with it depends on
#   ARBEL_CFLAGS    -O2 -g -Wall -Wextra -Werror, -I for tests/lib
#   ARBEL_CC        $(CC) $(ARBEL_CFLAGS)
#
# Sources include the headers by name: #include "ktap.h", "dev.h", ...

ARBEL_LIB_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
ARBEL_LIB_SRCS := $(addprefix $(ARBEL_LIB_DIR)/,dbgwin.c dev.c ktap.c mem.c util.c)
ARBEL_LIB_DEPS := $(ARBEL_LIB_SRCS) $(wildcard $(ARBEL_LIB_DIR)/*.h) \
	$(ARBEL_LIB_DIR)/lib.mk $(ARBEL_LIB_DIR)/../../qemu/arbel-dbgwin.h
CC ?= gcc
ARBEL_CFLAGS := -O2 -g -Wall -Wextra -Werror -I$(ARBEL_LIB_DIR)
ARBEL_CC = $(CC) $(ARBEL_CFLAGS)
