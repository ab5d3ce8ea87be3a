package redact

import "testing"

// TestForms holds credential forms that lines of code, configuration and
// commands write, each redacted with the text around it kept.
func TestForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// Names that say their value is secret.
		{`DB_PASS = "PssPE3xJ7gT2H"`, `DB_PASS = "<redacted>"`},
		{`$db_pass = 'QmAezmOWfSLj';`, `$db_pass = '<redacted>';`},
		{`def f11(): return connect(user="sa", pass_="QmAezmOWfSLj")`, `def f11(): return connect(user="sa", pass_="<redacted>")`},
		{`db_pw: Qh7hd0Ms2kPa`, `db_pw: <redacted>`},
		{`CREDENTIALS = "Zx81cVbn2MqwErTy5uIo"`, `CREDENTIALS = "<redacted>"`},
		{`TWILIO_AUTH = "4f3c2b1a09e8d7c6b5a4f3e2d1c0b9a8"`, `TWILIO_AUTH = "<redacted>"`},
		{`TWILIO_API_KEY_SID = "SK4f3c2b1a09e8d7c6b5a4f3e2d1c0b9a8"`, `TWILIO_API_KEY_SID = "<redacted>"`},
		{`SECRET_KEY_BASE = "52eb9d8e96cf37cb990c801f97b7684319e1b429"`, `SECRET_KEY_BASE = "<redacted>"`},
		{`  "private_key_id": "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d",`, `  "private_key_id": "<redacted>",`},
		// Values that look like no secret, given to a password.
		{`NUMERIC_PASSWORD = "927065379"`, `NUMERIC_PASSWORD = "<redacted>"`},
		{`DOLLAR_PASSWORD = "$Dlrv4XNiMyjkl"`, `DOLLAR_PASSWORD = "<redacted>"`},
		{`smtp_password: '%Tk29!xq'`, `smtp_password: '<redacted>'`},
		{`API_KEY = "sWVYCoIptZYEmxRKCDXsXyGHAkmZMiqd"`, `API_KEY = "<redacted>"`},
		{`db_password: SzhzSExLWFNmM3doMw==`, `db_password: <redacted>`},
		{`  password: cGFzc3dvcmQxMjM=`, `  password: <redacted>`},
		{`def f13(): return redis.from_url("redis://:Qx7bT2mLp9Rz@cache.internal:6379/0")`, `def f13(): return redis.from_url("redis://:<redacted>@cache.internal:6379/0")`},
		{`dsn := "app:Qz8fK2pLm4Xw@tcp(db:3306)/app"`, `dsn := "app:<redacted>@tcp(db:3306)/app"`},
		// Syntax.
		{`#define API_KEY "CdefPlcpTCCHHNkx"`, `#define API_KEY "<redacted>"`},
		{`#define DB_PASSWORD "QyW2nbv8Xz"`, `#define DB_PASSWORD "<redacted>"`},
		{`pub const SECRET: &str = "RstOqDqQa5ZD5sR";`, `pub const SECRET: &str = "<redacted>";`},
		{`const password: string | undefined = "Qp5s9wD2kf";`, `const password: string | undefined = "<redacted>";`},
		{`def f10(): return log("password: QpW3nvX8kLz1")`, `def f10(): return log("password: <redacted>")`},
		{`## Password: QmZx81VbnT`, `## Password: <redacted>`},
		// Headers and command lines.
		{`def f7(): return {"Authorization": "Bearer QcmT4a4Ad5y21234567890abcdef"}`, `def f7(): return {"Authorization": "Bearer <redacted>"}`},
		{`def f6(): return {"Authorization": "Basic YWRtaW46UXA5czl3RDJrZg=="}`, `def f6(): return {"Authorization": "Basic <redacted>"}`},
		{`curl -H "Authorization: Bearer Zk3jQ9vX2mP8wL5nZk3jQ9vX" https://api.example.com`, `curl -H "Authorization: Bearer <redacted>" https://api.example.com`},
		{`req.Header.Set("Authorization", "Token 9f8e7d6c5b4a39281706")`, `req.Header.Set("Authorization", "Token <redacted>")`},
		{`def f1(): return run("curl -u admin:QDNxril3RavG https://ci.example.com")`, `def f1(): return run("curl -u admin:<redacted> https://ci.example.com")`},
		{`curl --user=admin:QDNxril3RavG https://ci.example.com`, `curl --user=admin:<redacted> https://ci.example.com`},
		{`def f4(): return run("mysql -uroot -pQdhiG37LeXSy db")`, `def f4(): return run("mysql -uroot -p<redacted> db")`},
		{`pg_dump --password Qh4kX9pLm2 app`, `pg_dump --password <redacted> app`},
		{`machine api.example.com login bob password QpZ3x8VbN1`, `machine api.example.com login bob password <redacted>`},
		{`  password QpZ3x8VbN1`, `  password <redacted>`},
		{`db.example.com:5432:app:app:Qw9eR7tY5u`, `db.example.com:5432:app:app:<redacted>`},
		// SQL, XML and PowerShell.
		{`def f2(): return q("CREATE USER app WITH PASSWORD 'QD5MfvJ7NScU'")`, `def f2(): return q("CREATE USER app WITH PASSWORD '<redacted>'")`},
		{`ALTER USER 'app'@'%' IDENTIFIED BY 'Qk2Lx9Pm4N';`, `ALTER USER 'app'@'%' IDENTIFIED BY '<redacted>';`},
		{`def f3(): return '<password>QykT8C8UBkkp</password>'`, `def f3(): return '<password><redacted></password>'`},
		{`  <add key="ApiKey" value="Qw8eRt5yUi3oP1aS2dFg" />`, `  <add key="ApiKey" value="<redacted>" />`},
		{`$s = ConvertTo-SecureString "Qz7Xc4Vb1N" -AsPlainText -Force`, `$s = ConvertTo-SecureString "<redacted>" -AsPlainText -Force`},
		// Key material whose line is longer than a map shows.
		{`  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND`, `  tls.key: <redacted>`},
		{`const k = "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUlyWVNTTlFGYUEySHdmMWR1UlN4"`, `const k = "<redacted>"`},
		// Prose.
		{`# the admin password is Qx81cVbn2M`, `# the admin password is <redacted>`},
	} {
		if got, ok := Line(tc.in); got != tc.want || !ok {
			t.Errorf("Line(%q) =\n\t%q, %v\nwant\n\t%q, true", tc.in, got, ok, tc.want)
		}
	}
}
