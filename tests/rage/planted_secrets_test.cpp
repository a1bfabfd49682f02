// The planted-secrets corpus (issue 27, item 10, with the forms of issues 12 and 20): every form,
// planted in a log's envelope, a payload line, a file name, env.txt and a recorded command line,
// must be gone from every byte of the bundle: each member of the archive, decompressed too.
// Each rule's own test case (the `example` of its row in redaction_rules.cpp) is checked as well.
#include <catch2/catch.hpp>

#include "../../exporters/rage/src/redaction_rules.hpp"
#include "rage_support.hpp"

using namespace rage_test;
using namespace tlscope::exporters::rage;

namespace {

struct Form {
  std::string text;    // as planted
  std::string secret;  // what must not be found anywhere
  bool in_file_name;   // whether it can be a file name (no '/', no spaces)
};

const std::vector<Form>& forms() {
  static const std::vector<Form> kForms = {
      {"--password Pw1secretAlpha", "Pw1secretAlpha", false},
      {"-p Pw2secretBravo", "Pw2secretBravo", false},
      {"--api-key Pw3secretCharlie", "Pw3secretCharlie", false},
      {"password: Pw4secretDelta", "Pw4secretDelta", false},
      {"X-Api-Key: Pw5secretEcho", "Pw5secretEcho", false},
      {"Cookie: sessionid=Pw6secretFoxtrot; theme=dark", "Pw6secretFoxtrot", false},
      {"Authorization: Basic YWxpY2U6UHc3c2VjcmV0R29sZg==", "YWxpY2U6UHc3c2VjcmV0R29sZg==", false},
      {"machine example.com login alice password Pw8secretHotel", "Pw8secretHotel", false},
      {"ya29.a0AfH6SMBx3kLq9Zt7Wm2pQrSuVw", "a0AfH6SMBx3kLq9Zt7Wm2pQrSuVw", true},
      {"AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", true},
      {"glpat-xY7zK9mN2pQ4rS6tU8vW", "xY7zK9mN2pQ4rS6tU8vW", true},
      {"npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", true},
      {"sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc", true},
      {"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJQbGFudGVkIn0.Q1w2E3r4T5y6U7i8O9p0",
       "eyJzdWIiOiJQbGFudGVkIn0.Q1w2E3r4T5y6U7i8O9p0", true},
      {"https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=Pw15SigGolf%2BxYz%3D&se=2030",
       "Pw15SigGolf", false},
      {"https://h/x?token%3DPw16UrlEncodedIndia", "Pw16UrlEncodedIndia", false},
      {"ghp%5FPw17UrlJulietABCDEFGHIJKLMNOPQ", "Pw17UrlJulietABCDEFGHIJKLMNOPQ", true},
      // base64 of "ghp_Pw18Base64KiloABCDEFGHIJKLMNOP"
      {"Z2hwX1B3MThCYXNlNjRLaWxvQUJDREVGR0hJSktMTU5PUA==",
       "Z2hwX1B3MThCYXNlNjRLaWxvQUJDREVGR0hJSktMTU5PUA", true},
      {"run_ghp_Pw19AfterUnderscoreABCDEFGHIJKL", "Pw19AfterUnderscoreABCDEFGHIJKL", true},
      {"-----BEGIN PRIVATE KEY-----\\nMIIEvPw20KeyInJsonLima\\n-----END PRIVATE KEY-----",
       "MIIEvPw20KeyInJsonLima", false},
      {"MASTER_ADDR=alice:Pw21MasterMike@node1", "Pw21MasterMike", false},
      {"NCCL_IB_PWD=Pw22NcclNovember", "Pw22NcclNovember", false},
      // Earlier rounds.
      {"ghp_Pw23OldOscarABCDEFGHIJKLMNOPQRS", "Pw23OldOscarABCDEFGHIJKLMNOPQRS", true},
      {"hf_Pw24OldPapaABCDEFGHIJKLMNOPQRSTU", "Pw24OldPapaABCDEFGHIJKLMNOPQRSTU", true},
      {"AKIAPW25OLDQUEBECXYZ", "AKIAPW25OLDQUEBECXYZ", true},
      {"xoxb-Pw26OldRomeo-1234567", "Pw26OldRomeo-1234567", true},
      {"sk-Pw27OldSierra1234567890abc", "Pw27OldSierra1234567890abc", true},
      {"Authorization: Bearer Pw28OldTangoToken", "Pw28OldTangoToken", false},
      {"https://bob:Pw29OldUniform@example.com/x", "Pw29OldUniform", false},
      {"aws_secret_access_key = Pw30OldVictorKEY/abc", "Pw30OldVictorKEY", false},
      {"db password=Pw31OldWhiskey", "Pw31OldWhiskey", false},
  };
  return kForms;
}

std::string json_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"')
      out += "\\\"";
    else
      out += c;
  }
  return out;
}

}  // namespace

TEST_CASE("redaction rules: every rule's own test case is redacted", "[rage][redaction]") {
  for (const RedactionRule& rule : redaction_rules()) {
    std::string line(rule.example);
    INFO(line);
    Redactor r;
    RedactionCounts counts;
    r.redact_line(line, counts);
    CHECK(line.find(rule.secret) == std::string::npos);
    CHECK(counts[rule.kind] >= 1);
  }
}

TEST_CASE("planted secrets: no form survives in any byte of a bundle", "[rage][redaction]") {
  fs::path dir = scratch("planted_corpus");
  fs::path logs = dir / "logs";
  fs::create_directories(logs);
  // One log holding every form in its envelope and payload, after a real rank log.
  std::string planted;
  std::vector<std::string> payload;
  for (const Form& f : forms()) payload.push_back("x = 1  # " + f.text);
  for (size_t i = 0; i < forms().size(); ++i)
    planted += record("V1128 10:00:00.000000 60448 torch/_dynamo/convert_frame.py:1]",
                      "{\"artifact\": {\"name\": \"note\", \"encoding\": \"string\", \"note\": \"" +
                          json_escaped(forms()[i].text) +
                          "\"}, \"rank\": 0, \"frame_id\": 0, \"frame_compile_id\": 0, "
                          "\"attempt\": 0}",
                      i == 0 ? payload : std::vector<std::string>{"y = 2"});
  // A key block on a line that is no record at all.
  planted +=
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEvPw32BareKeyLine\n-----END RSA PRIVATE KEY-----\n";
  std::string body = planted + retime(slurp(kRank0), wall(10, 0, 0));
  std::vector<std::string> files = {"dedicated_log_torch_trace_rank_0_plain.log"};
  spit(logs / files[0], body);
  int rank = 1;
  for (const Form& f : forms()) {
    if (!f.in_file_name) continue;
    std::string name =
        "dedicated_log_torch_trace_rank_" + std::to_string(rank++) + "_x_" + f.text + ".log";
    files.push_back(name);
    spit(logs / name, retime(slurp(kRank1), wall(10, 0, 1)));
  }
  std::string env =
      "env -i PATH=\"$PATH\" HOME=\"$HOME\" ASAN_OPTIONS=\"$ASAN_OPTIONS\" "
      "XDG_STATE_HOME=" +
      q((dir / "state").string()) + " XDG_CACHE_HOME=" + q((dir / "cache").string());
  for (size_t i = 0; i < forms().size(); ++i)
    env += " TORCH_PLANT_" + std::to_string(i) + "=" + q(forms()[i].text);
  env += " MASTER_ADDR=alice:Pw21MasterMike@node1 NCCL_IB_PWD=Pw22NcclNovember ";
  std::string all_files;
  for (const std::string& f : files) all_files += " " + q((logs / f).string());
  Run bundle = sh(dir, env + q(kTlscope) + " rage" + all_files + " -o " +
                           q((dir / "run.tar.gz").string()) + " --no-probe");
  INFO(bundle.err);
  REQUIRE(bundle.exit_code == 0);

  // A recorded command line holding every form (as tlscope's own arguments), bundled.
  std::string args;
  for (const Form& f : forms()) args += " " + q(f.text);
  for (const Form& f : forms()) {
    size_t sp = f.text.find(' ');
    if (f.text.rfind("--", 0) == 0 && f.text[2] != '-' && sp != std::string::npos)
      args += " " + q(f.text.substr(0, sp)) + " " + q(f.text.substr(sp + 1));
    else if (f.text.rfind("-p ", 0) == 0)  // options as two arguments
      args += " " + q(f.text.substr(0, sp)) + " " + q(f.text.substr(sp + 1));
  }
  sh(dir, "cd " + q(dir.string()) + " && " + env + q(kTlscope) + " summary " +
              q((logs / files[0]).string()) + args);
  Run command = sh(dir, "cd " + q(dir.string()) + " && " + env + q(kTlscope) +
                            " rage --command 0 --logs-only -o " +
                            q((dir / "command.tar.gz").string()) + " --no-probe");
  INFO(command.err);
  REQUIRE(command.exit_code == 0);

  for (const char* bundle_name : {"run.tar.gz", "command.tar.gz"}) {
    fs::path x = dir / (std::string("x-") + bundle_name);
    fs::create_directories(x);
    REQUIRE(
        sh(dir, "tar -xzf " + q((dir / bundle_name).string()) + " -C " + q(x.string())).exit_code ==
        0);
    // Every member, and every gzip member decompressed; names too.
    std::string all;
    size_t members = 0;
    for (const auto& e : fs::recursive_directory_iterator(x)) {
      all += e.path().string() + "\n";
      if (!e.is_regular_file()) continue;
      ++members;
      all += slurp(e.path());
      Run gz = sh(dir, "gzip -dc " + q(e.path().string()) + " 2>/dev/null");
      if (gz.exit_code == 0) all += gz.out;
    }
    CHECK(members >= 3);
    for (const Form& f : forms()) {
      INFO(bundle_name << ": " << f.text);
      CHECK(all.find(f.secret) == std::string::npos);
    }
    CHECK(all.find("MIIEvPw32BareKeyLine") == std::string::npos);
  }
}
