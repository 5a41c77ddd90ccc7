/* reason_words.h: a reason text read by its words.
 *
 * Behind reason.c's table of the known sources' sentences: a text that is
 * none of them is cut into words (letters and digits; case, blanks,
 * punctuation and underscores aside), each word is given its meaning in
 * the vocabulary of endings (checkmate, stalemate, repetition, fivefold,
 * fifty, seventy-five, insufficient, time, resign, agree, abandon,
 * adjudication, illegal; win, loss, draw; White, Black), and the meanings
 * decide the claim: one end named, and no word against it.  Words that
 * name two ends, deny one, or belong to a variant's end leave no claim. */
#ifndef ARB_REASON_WORDS_H
#define ARB_REASON_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "reason.h"

/* Reads s[0..n) by its words into *out (claim, winner, implies, site,
 * tablebase, rank, and user_start/user_len/user_loses relative to s for a
 * leading run of words that may be a player's name).  strict (a comment's
 * sentence): every word must be one of the vocabulary and the sentence
 * must open with a capital or a digit, as the programs that close a
 * comment with a reason write it, never an annotator's prose.  Returns
 * true when the words make a claim; false leaves *out a reading of no
 * claim (ARB_CLAIM_OTHER, rank 0, implying nothing). */
bool reason_words(const char *s, size_t n, bool strict, reason_parsed_t *out);

#endif
