/* SPDX-License-Identifier: MIT */
/* fastcopy-bench --glibc-root DIR: measure against another glibc than the
   system's, one unpacked into DIR (dpkg -x of a libc6 package, say).

   A process has one libc, the one its dynamic loader brought in, so the
   tool runs itself again under DIR's loader:
       DIR/.../ld-linux-x86-64.so.2 --library-path LIBDIR:FCDIR[:$LD_LIBRARY_PATH]
	   /path/of/fastcopy-bench ARGS...
   where LIBDIR, the directory of DIR's loader and libc.so.6, comes first
   (libc.so.6 and libm.so.6 are taken from there) and FCDIR keeps the
   libfastcopy this program is linked with findable.  The second run finds
   DIR's libc.so.6 in the process and goes on; the environment variable
   REEXEC_MARK tells it that it was started so, in case the libc still
   came from elsewhere (which would otherwise start it again and again).  */

#define _GNU_SOURCE 1
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"

#define LOADER "ld-linux-x86-64.so.2"
#define REEXEC_MARK "FASTCOPY_BENCH_UNDER_GLIBC_ROOT"

/* Where a glibc package keeps its loader, libc.so.6 beside it: Debian's
   multiarch directory (under usr/ since Debian 12's merged /usr), then
   the lib64 of other distributions.  The multiarch ones come first: in a
   Debian package, lib64/ld-linux-x86-64.so.2 is a link to an absolute
   path, the system's loader.  */
static const char *const loader_dirs[] = {
  "lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu", "lib64", "usr/lib64"
};

/* The canonical PATH into OUT; an option error if it does not exist.  */
static void
canonical (const char *path, char *out)
{
  if (realpath (path, out) == NULL)
    error_exit (2, "--glibc-root %s: %s: %s", opt.glibc_root, path,
		strerror (errno));
}

/* Whether the file at PATH contains TEXT.  */
static int
file_contains (const char *path, const char *text)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0 || st.st_size == 0)
    {
      if (fd >= 0)
	close (fd);
      return 0;
    }
  void *p = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (p == MAP_FAILED)
    return 0;
  int found = memmem (p, (size_t) st.st_size, text, strlen (text)) != NULL;
  munmap (p, (size_t) st.st_size);
  return found;
}

/* The libc.so.6 this process runs with, canonical, into OUT.  */
static void
libc_in_process (char *out)
{
  Dl_info info;
  void *fn = dlsym (RTLD_DEFAULT, "gnu_get_libc_version");
  if (fn == NULL || dladdr (fn, &info) == 0 || info.dli_fname == NULL
      || realpath (info.dli_fname, out) == NULL)
    error_exit (1, "cannot tell which libc.so.6 this process runs with");
}

/* The directory of the libfastcopy this program is linked with.  */
static void
linked_fastcopy_dir (char *out, size_t len)
{
  Dl_info info;
  if (dladdr ((void *) fastcopy_version, &info) == 0 || info.dli_fname == NULL)
    error_exit (1,
		"cannot locate the libfastcopy this program is linked with");
  const char *slash = strrchr (info.dli_fname, '/');
  if (slash == NULL)
    snprintf (out, len, ".");
  else
    snprintf (out, len, "%.*s", (int) (slash - info.dli_fname),
	      info.dli_fname);
}

void
fcb_enter_glibc_root (char **argv)
{
  const char *dir = opt.glibc_root;
  char root[PATH_MAX], loader[PATH_MAX], libc[PATH_MAX];
  char real_loader[PATH_MAX], real_libc[PATH_MAX], running[PATH_MAX];
  struct stat st;
  canonical (dir, root);
  if (stat (root, &st) != 0 || !S_ISDIR (st.st_mode))
    error_exit (2, "--glibc-root %s: not a directory", dir);

  const char *libdir = NULL;
  for (size_t i = 0; i < N_OF (loader_dirs) && libdir == NULL; i++)
    {
      snprintf (loader, sizeof loader, "%s/%s/%s", dir, loader_dirs[i], LOADER);
      if (lstat (loader, &st) == 0)
	libdir = loader_dirs[i];
    }
  if (libdir == NULL)
    error_exit (2, "--glibc-root %s: no dynamic loader: none of %s/{%s,%s,"
		"%s,%s}/%s exists (unpack a libc6 package there: dpkg -x"
		" libc6_VERSION_amd64.deb %s)", dir, dir, loader_dirs[0],
		loader_dirs[1], loader_dirs[2], loader_dirs[3], LOADER, dir);
  canonical (loader, real_loader);
  size_t rootlen = strlen (root);
  if (strncmp (real_loader, root, rootlen) != 0 || real_loader[rootlen] != '/')
    error_exit (2, "--glibc-root %s: the loader %s leads out of the "
		"directory, to %s", dir, loader, real_loader);
  snprintf (libc, sizeof libc, "%s/%s/libc.so.6", dir, libdir);
  if (lstat (libc, &st) != 0)
    error_exit (2, "--glibc-root %s: not a glibc: no libc.so.6 beside its "
		"loader %s", dir, loader);
  canonical (libc, real_libc);
  /* Every glibc's libc.so.6 carries the banner that running it prints.  */
  if (!file_contains (real_libc, "GNU C Library"))
    error_exit (2, "--glibc-root %s: not a glibc: %s has no \"GNU C "
		"Library\" banner", dir, libc);

  libc_in_process (running);
  if (strcmp (running, real_libc) == 0)
    {
      unsetenv (REEXEC_MARK);
      snprintf (lib.loader_path, sizeof lib.loader_path, "%s", loader);
      return;
    }
  if (getenv (REEXEC_MARK) != NULL)
    error_exit (1, "--glibc-root %s: started under %s, but libc.so.6 came from"
		" %s, not %s", dir, loader, running, real_libc);

  char self[PATH_MAX], fcdir[PATH_MAX], path[3 * PATH_MAX + 2];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n < 0)
    error_exit (1, "cannot find this program: /proc/self/exe: %s",
		strerror (errno));
  self[n] = 0;
  linked_fastcopy_dir (fcdir, sizeof fcdir);
  const char *inherited = getenv ("LD_LIBRARY_PATH");
  snprintf (path, sizeof path, "%s/%s:%s%s%s", dir, libdir, fcdir,
	    inherited && *inherited ? ":" : "", inherited ? inherited : "");

  int argc = 0;
  while (argv[argc] != NULL)
    argc++;
  char **args = calloc ((size_t) argc + 5, sizeof *args);
  if (args == NULL)
    error_exit (1, "out of memory");
  args[0] = loader;
  args[1] = (char *) "--library-path";
  args[2] = path;
  args[3] = self;
  for (int i = 1; i <= argc; i++)
    args[3 + i] = argv[i];
  setenv (REEXEC_MARK, "1", 1);
  fflush (NULL);
  execv (loader, args);
  error_exit (2, "--glibc-root %s: cannot run its loader %s: %s", dir,
	      loader, strerror (errno));
}
