/* SPDX-License-Identifier: MIT */
// Area: interpose
// Purpose: a C++ program linked with -z now (so libstdc++ and the program
// are relocated eagerly, the case of notes/pitfalls.md 1) that copies
// std::string and std::vector data prints exactly its normal output with
// libfastcopy preloaded and nothing on stderr (no "Relink ... for IFUNC
// symbol"), and its memcpy/memmove/memset references bind to libfastcopy.
// { fc-options "-O2 -Wl,-z,now" }
// { fc-load preload }
// { fc-binds "memcpy memmove" }

#include <iostream>
#include <numeric>
#include <string>
#include <vector>

int
main ()
{
  std::vector<std::string> words;
  for (int i = 0; i < 3000; i++)
    words.push_back (std::string (i % 97 + 1, char ('a' + i % 26))
		     + std::to_string (i));
  std::vector<std::string> copy = words;
  std::string joined;
  for (const std::string &w : copy)
    joined += w;

  std::vector<int> v (100000);
  std::iota (v.begin (), v.end (), 1);
  std::vector<int> w (v);
  w.insert (w.begin () + 10, v.begin (), v.begin () + 5000);
  w.erase (w.begin () + 3, w.begin () + 2003);

  unsigned long sum = 0;
  for (unsigned char c : joined)
    sum = sum * 31 + c;
  for (int x : w)
    sum = sum * 7 + unsigned (x);
  std::cout << "strings " << joined.size () << " ints " << w.size ()
	    << " checksum " << sum << "\n";
  return 0;
}
