using System.CommandLine;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Common;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Commands;

/// <summary>
/// TLS of <c>https://</c> targets, named as grpcurl names it: <c>--cacert</c>, <c>--cert</c> with <c>--key</c>
/// (mTLS), <c>--insecure</c>. Checked against the targets here; the files are read once, before any load.
/// </summary>
internal sealed class TlsOptions
{
    public Option<string?> CaCert { get; } = new("--cacert") { Description = "https:// targets: trust the CAs of this PEM file instead of the system's." };

    public Option<string?> Cert { get; } = new("--cert") { Description = "https:// targets: send this client certificate (PEM), for mTLS; needs --key." };

    public Option<string?> Key { get; } = new("--key") { Description = "--cert's private key (PEM, unencrypted)." };

    public Option<bool> Insecure { get; } = new("--insecure") { Description = "https:// targets: do not verify the server's certificate." };

    public IReadOnlyList<Option> All => [CaCert, Cert, Key, Insecure];

    /// <param name="targets">The run's <c>--target</c>s: the options need https:// ones.</param>
    /// <exception cref="UsageException">An option without an https:// target, or a file that cannot be used.</exception>
    public ClientTls Bind(ParseResult parse, IReadOnlyList<ServiceTarget> targets)
    {
        var given = All.FirstOrDefault(o => parse.GetResult(o) is { Implicit: false } && !(o == Insecure && !parse.GetValue(Insecure)));
        if (given is null)
        {
            return ClientTls.System;
        }

        if (targets.Count == 0)
        {
            throw new UsageException($"{given.Name} is for https:// targets (--target grpc=https://host:port or soap=https://...); the services the runner starts speak plain text.");
        }

        if (targets.FirstOrDefault(t => !IsHttps(t)) is { } plain)
        {
            throw new UsageException($"{given.Name} is for https:// targets, and --target {plain.Stack}={plain.Address} is not one: give it as https:// or leave {given.Name} out.");
        }

        try
        {
            return ClientTls.Load(parse.GetValue(CaCert), parse.GetValue(Cert), parse.GetValue(Key), parse.GetValue(Insecure));
        }
        catch (CallSetupException ex)
        {
            throw new UsageException(ex.Message);
        }
    }

    private static bool IsHttps(ServiceTarget target) => target.Address?.Scheme == Uri.UriSchemeHttps;
}
