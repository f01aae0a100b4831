using System.CommandLine;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>
/// <c>--cacert</c>, <c>--cert</c>, <c>--key</c>, <c>--insecure</c>: bound for https:// targets only, their files read
/// before any load, and written to the run's config as paths (never a key's content).
/// </summary>
public sealed class TlsOptionsTests : IDisposable
{
    private const string Https = "grpc=https://127.0.0.1:5443,metrics=http://127.0.0.1:5444";
    private readonly string _folder = Directory.CreateTempSubdirectory("harness-tls-options-").FullName;
    private readonly string _cert;
    private readonly string _key;

    public TlsOptionsTests()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        using var certificate = new CertificateRequest("CN=harness-test", key, HashAlgorithmName.SHA256)
            .CreateSelfSigned(DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddHours(1));
        _cert = Path.Combine(_folder, "cert.pem");
        _key = Path.Combine(_folder, "key.pem");
        File.WriteAllText(_cert, certificate.ExportCertificatePem());
        File.WriteAllText(_key, key.ExportPkcs8PrivateKeyPem());
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void HttpsTarget_TakesTheFiles_AndTheConfigNamesThemByPath()
    {
        // Act
        var options = Bind("--target", Https, "--cacert", _cert, "--cert", _cert, "--key", _key);
        var repeated = Bind("--config", Write(options.EffectiveConfig!));

        // Assert
        Assert.Equal(_cert, options.Measurement.Tls.CaCertFile);
        Assert.Equal(_key, options.Measurement.Tls.KeyFile);
        Assert.DoesNotContain("PRIVATE KEY", options.EffectiveConfig, StringComparison.Ordinal);
        Assert.Contains("\"key\": ", options.EffectiveConfig, StringComparison.Ordinal);
        Assert.Equal(_cert, repeated.Measurement.Tls.CaCertFile);
        Assert.Equal(_cert, repeated.Measurement.Tls.CertFile);
        Assert.Equal(_key, repeated.Measurement.Tls.KeyFile);
        Assert.False(repeated.Measurement.Tls.Insecure);
    }

    [Fact]
    public void NoOption_LeavesTheSystemsTrust() =>
        Assert.Same(Clients.ClientTls.System, Bind("--target", Https).Measurement.Tls);

    [Fact]
    public void Insecure_IsKept() => Assert.True(Bind("--target", Https, "--insecure").Measurement.Tls.Insecure);

    [Fact]
    public void AnOptionOnAPlainTarget_IsRefused_NamingTheOptionAndTheTarget()
    {
        var ex = Assert.Throws<UsageException>(() => Bind("--target", "soap=http://127.0.0.1:5080", "--cacert", _cert));

        Assert.Contains("--cacert is for https:// targets, and --target soap=http://127.0.0.1:5080/ is not one", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnOptionWithoutTargets_IsRefused() =>
        Assert.Contains("--insecure is for https:// targets", Assert.Throws<UsageException>(() => Bind("--insecure")).Message, StringComparison.Ordinal);

    [Theory]
    [InlineData("--cert needs --key", "--cert", "CERT")]
    [InlineData("--key goes with --cert", "--key", "KEY")]
    [InlineData("--cacert", "--cacert", "MISSING")]
    [InlineData("holds no PEM certificate", "--cacert", "KEY")]
    public void BadInput_IsRefused(string expected, string option, string file)
    {
        var path = file switch { "CERT" => _cert, "KEY" => _key, _ => Path.Combine(_folder, "missing.pem") };

        var ex = Assert.Throws<UsageException>(() => Bind("--target", Https, option, path));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    private static RunOptions Bind(params string[] args)
    {
        var options = new RunCommandOptions();
        var command = new RootCommand();
        options.AddTo(command);
        var parse = command.Parse(args);
        Assert.Empty(parse.Errors);
        return RunConfigFile.Bind(parse, options, p => options.Bind(p, "harness"));
    }

    private string Write(string text)
    {
        var path = Path.Combine(_folder, "run-config.json");
        File.WriteAllText(path, text);
        return path;
    }
}
