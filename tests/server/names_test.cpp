// Display names: what players read as someone's name must be what is there. Hand-made strings for each
// refused class, at both ends of every range, next to neighbours that are fine.
#include "server/names.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <string>

using tabula::GameError;
using tabula::server::validate_display_name;

namespace {

// The UTF-8 bytes of one code point, written out by hand (not by the code under test).
std::string utf8(char32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// The message a name is refused with, or "" when it is accepted.
std::string refusal(const std::string& name) {
  try {
    validate_display_name(name);
    return "";
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), tabula::ErrorKind::bad_request);
    return e.what();
  }
}

void expect_refused(std::initializer_list<char32_t> code_points, const std::string& message) {
  for (char32_t cp : code_points) {
    std::string msg = refusal("Ana" + utf8(cp) + "Bo");
    EXPECT_NE(msg.find(message), std::string::npos) << std::hex << "U+" << static_cast<unsigned>(cp) << ": " << msg;
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(cp));
    EXPECT_NE(msg.find(code), std::string::npos) << msg;  // the message says which character
  }
}

void expect_accepted(std::initializer_list<char32_t> code_points) {
  for (char32_t cp : code_points)
    EXPECT_EQ(refusal("Ana" + utf8(cp) + "Bo"), "") << std::hex << "U+" << static_cast<unsigned>(cp);
}

}  // namespace

TEST(Names, TheTestsEncoderIsUtf8) {
  EXPECT_EQ(utf8(0xE9), "\xC3\xA9");
  EXPECT_EQ(utf8(0x202E), "\xE2\x80\xAE");
  EXPECT_EQ(utf8(0x1F600), "\xF0\x9F\x98\x80");
}

TEST(Names, PrintableNamesInAnyScriptAreAccepted) {
  EXPECT_EQ(validate_display_name("Ana"), "Ana");
  EXPECT_EQ(validate_display_name("José Müller-Øster"), "José Müller-Øster");
  EXPECT_EQ(validate_display_name("Zoë"), "Zoë");
  EXPECT_EQ(validate_display_name("李小龍"), "李小龍");
  EXPECT_EQ(validate_display_name("山田 太郎"), "山田 太郎");
  EXPECT_EQ(validate_display_name("김민준"), "김민준");
  EXPECT_EQ(validate_display_name("محمد"), "محمد");       // right-to-left letters are letters
  EXPECT_EQ(validate_display_name("Ελένη"), "Ελένη");
  EXPECT_EQ(validate_display_name("e\u0301"), "e\u0301");  // a combining accent
  EXPECT_EQ(validate_display_name("😀 🇫🇷"), "😀 🇫🇷");  // emoji, a flag (two regional indicators)
  EXPECT_EQ(validate_display_name("👍🏽"), "👍🏽");          // a skin-tone modifier
  EXPECT_EQ(validate_display_name("❤\uFE0F"), "❤\uFE0F");  // a variation selector picks the emoji style
  EXPECT_EQ(validate_display_name("葛" + utf8(0xE0100)), "葛" + utf8(0xE0100));  // an ideographic variant
  EXPECT_EQ(validate_display_name("R2-D2 (the 2nd) ¡olé! ¬®"), "R2-D2 (the 2nd) ¡olé! ¬®");
}

TEST(Names, SpacesAroundAreTrimmedAndNothingLeftIsNoName) {
  EXPECT_EQ(validate_display_name("  Ana Bo  "), "Ana Bo");
  EXPECT_EQ(validate_display_name(""), std::nullopt);
  EXPECT_EQ(validate_display_name("     "), std::nullopt);
}

TEST(Names, AtMostFortyCharactersNotBytes) {
  std::string e_acute;  // 2 bytes each
  std::string han;      // 3 bytes each
  std::string emoji;    // 4 bytes each
  for (int i = 0; i < 40; ++i) {
    e_acute += "é";
    han += "漢";
    emoji += "😀";
  }
  EXPECT_EQ(validate_display_name(e_acute), e_acute);
  EXPECT_EQ(validate_display_name(han), han);
  EXPECT_EQ(validate_display_name(emoji), emoji);
  EXPECT_EQ(validate_display_name("   " + emoji + "   "), emoji);  // trimmed before counting
  EXPECT_EQ(validate_display_name(std::string(40, 'a')), std::string(40, 'a'));
  for (const std::string& too_long : {e_acute + "é", han + "a", emoji + "😀", std::string(41, 'a'),
                                      std::string(20, 'a') + "  " + std::string(19, 'b')})
    EXPECT_EQ(refusal(too_long), "a name is at most 40 characters") << too_long;
}

TEST(Names, OnlyWellFormedUtf8) {
  const char* broken[] = {
      "\x80",              // a continuation byte alone
      "Ana\xC3",           // cut short at the end
      "\xC3(",             // a lead byte without its continuation
      "\xE2\x82",          // three-byte sequence cut short
      "\xC0\xAF",          // overlong '/'
      "\xC1\xBF",          // overlong DEL
      "\xE0\x80\xAF",      // overlong '/' in three bytes
      "\xE0\x9F\xBF",      // overlong U+07FF
      "\xF0\x80\x80\xAF",  // overlong '/' in four bytes
      "\xF0\x8F\xBF\xBF",  // overlong U+FFFF
      "\xED\xA0\x80",      // surrogate U+D800
      "\xED\xBF\xBF",      // surrogate U+DFFF
      "\xED\xA0\xBD\xED\xB8\x80",  // a surrogate pair (CESU-8) for U+1F600
      "\xF4\x90\x80\x80",  // U+110000
      "\xF5\x80\x80\x80",  // beyond any plane
      "\xFE",              // never in UTF-8
      "\xFF",
  };
  for (const char* name : broken) EXPECT_EQ(refusal(name), "a name must be valid UTF-8") << name;
  // The edges just inside each rule are fine.
  EXPECT_EQ(refusal("\xC2\xA1"), "");          // U+00A1, the first two-byte form
  EXPECT_EQ(refusal("\xE0\xA0\x80"), "");      // U+0800, the first three-byte form
  EXPECT_EQ(refusal("\xED\x9F\xBF"), "");      // U+D7FF, just before the surrogates
  EXPECT_EQ(refusal("\xEE\x80\x80"), "a name may not contain private-use characters (U+E000)");  // just after
  EXPECT_EQ(refusal("\xF0\x90\x80\x80"), "");  // U+10000, the first four-byte form
}

TEST(Names, NoControlsOrLineBreaks) {
  EXPECT_NE(refusal(std::string("Ana\0Bo", 6)).find("control characters"), std::string::npos);
  expect_refused({0x01, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9F, 0x2028, 0x2029},
                 "a name may not contain control characters or line breaks");
  expect_accepted({0x20, 0x7E, 0xA1, 0x2027, 0x2030});
}

TEST(Names, NoDirectionChangingCharacters) {
  expect_refused({0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069},
                 "a name may not contain invisible or direction-changing characters");
  // The classic spoof: "Ana" + RIGHT-TO-LEFT OVERRIDE + "gpj.exe" shows as "Anaexe.jpg".
  EXPECT_NE(refusal("Ana\u202Egpj.exe").find("direction-changing"), std::string::npos);
}

TEST(Names, NoInvisibleCharacters) {
  expect_refused({0x00AD, 0x034F, 0x17B4, 0x180E, 0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064,
                  0xFEFF, 0xFFF9, 0xFFFA, 0xFFFB, 0x1BCA0, 0x1D173, 0xE0000, 0xE0001, 0xE0041, 0xE007F},
                 "a name may not contain invisible or direction-changing characters");
  // Neighbours that show something, and variation selectors, are fine.
  expect_accepted({0x00AC, 0x00AE, 0x180D, 0x2010, 0x2070, 0xFE00, 0xFE0F, 0xFEFC, 0xFFFC, 0xE0100, 0xE01EF});
}

TEST(Names, NoBlanksButThePlainSpace) {
  expect_refused({0x00A0, 0x1680, 0x2000, 0x2005, 0x200A, 0x202F, 0x205F, 0x3000, 0x3164, 0x115F, 0x1160, 0xFFA0},
                 "a name may not contain blank characters other than the plain space");
  // Not trimmed either: a no-break space at the end is refused, not dropped.
  EXPECT_NE(refusal("Ana\u00A0").find("blank characters"), std::string::npos);
  expect_accepted({0x115E, 0x1161, 0x3001, 0x3165});
}

TEST(Names, NoPrivateUseOrNoncharacters) {
  expect_refused({0xE000, 0xF000, 0xF8FF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD},
                 "a name may not contain private-use characters");
  expect_refused({0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x2FFFF, 0xFFFFE, 0x10FFFF},
                 "a name may not contain noncharacters");
  expect_accepted({0xD7FB, 0xF900, 0xFDCF, 0xFDF0, 0xFFFD, 0x1FFFD, 0xEFFFD});
}
