using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Harness.LoadTests.Clients;

/// <summary>
/// How the clients speak TLS to an https:// target, named as grpcurl names it: <c>--cacert</c> (the CAs to trust
/// instead of the system's), <c>--cert</c> and <c>--key</c> (a client certificate, for mTLS), <c>--insecure</c> (no
/// verification). SNI is the target's host; the server certificate's name is checked against it, as curl does.
/// </summary>
public sealed class ClientTls
{
    private readonly X509Certificate2Collection? _trust;
    private readonly X509Certificate2? _clientCertificate;

    private ClientTls(string? caCertFile, string? certFile, string? keyFile, bool insecure, X509Certificate2Collection? trust, X509Certificate2? clientCertificate)
    {
        CaCertFile = caCertFile;
        CertFile = certFile;
        KeyFile = keyFile;
        Insecure = insecure;
        _trust = trust;
        _clientCertificate = clientCertificate;
    }

    /// <summary>The system's trust, no client certificate.</summary>
    public static ClientTls System { get; } = new(null, null, null, false, null, null);

    public string? CaCertFile { get; }

    public string? CertFile { get; }

    public string? KeyFile { get; }

    public bool Insecure { get; }

    /// <summary>True when anything differs from <see cref="System"/>.</summary>
    public bool IsCustom => CaCertFile is not null || CertFile is not null || Insecure;

    /// <summary>Reads the files once, so a bad one is said before any load.</summary>
    /// <exception cref="CallSetupException">A file is missing or holds no certificate or key; --cert without --key or the reverse.</exception>
    public static ClientTls Load(string? caCertFile, string? certFile, string? keyFile, bool insecure)
    {
        if ((certFile is null) != (keyFile is null))
        {
            throw new CallSetupException(certFile is null
                ? "--key goes with --cert: give the client certificate (PEM) and its private key (PEM) together."
                : "--cert needs --key: give the client certificate's private key (PEM) too.");
        }

        X509Certificate2Collection? trust = null;
        if (caCertFile is not null)
        {
            Exists(caCertFile, "--cacert");
            trust = [];
            try
            {
                trust.ImportFromPemFile(caCertFile);
            }
            catch (CryptographicException ex)
            {
                throw new CallSetupException($"--cacert {caCertFile}: not a PEM certificate bundle ({ex.Message}).", ex);
            }

            if (trust.Count == 0)
            {
                throw new CallSetupException($"--cacert {caCertFile}: holds no PEM certificate (-----BEGIN CERTIFICATE-----).");
            }
        }

        X509Certificate2? client = null;
        if (certFile is not null)
        {
            Exists(certFile, "--cert");
            Exists(keyFile!, "--key");
            try
            {
                client = X509Certificate2.CreateFromPemFile(certFile, keyFile);
            }
            catch (Exception ex) when (ex is CryptographicException or ArgumentException)
            {
                throw new CallSetupException(
                    $"--cert {certFile} --key {keyFile}: not a PEM certificate and its matching private key (unencrypted PEM) ({ex.Message}).", ex);
            }
        }

        return new ClientTls(caCertFile, certFile, keyFile, insecure, trust, client);
    }

    /// <summary>
    /// The options of one connection's handshake to <paramref name="host"/> (its SNI, and the name its certificate must
    /// hold), offering <paramref name="protocol"/> by ALPN. Null for SocketsHttpHandler, which names each request's host.
    /// </summary>
    public SslClientAuthenticationOptions For(string? host, SslApplicationProtocol protocol) => new()
    {
        TargetHost = host,
        ApplicationProtocols = [protocol],
        ClientCertificates = _clientCertificate is null ? null : [_clientCertificate],
        RemoteCertificateValidationCallback = Insecure || _trust is not null ? Validate : null,
        CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
    };

    /// <summary>A handshake that failed, as the clients report it: one line with the target and the cause.</summary>
    public static string HandshakeFailed(string host, Exception cause) =>
        $"The TLS handshake with {host} failed: {cause.Message}{(cause.InnerException is { } inner ? " " + inner.Message : "")}";

    private bool Validate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        if (Insecure)
        {
            return true;
        }

        if (certificate is null || (errors & (SslPolicyErrors.RemoteCertificateNotAvailable | SslPolicyErrors.RemoteCertificateNameMismatch)) != 0)
        {
            return false;
        }

        // Only the chain is judged again: against --cacert's roots alone, the system's store left out.
        using var custom = new X509Chain();
        custom.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        custom.ChainPolicy.CustomTrustStore.AddRange(_trust!);
        custom.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        if (chain is not null)
        {
            custom.ChainPolicy.ExtraStore.AddRange(chain.ChainPolicy.ExtraStore);
            foreach (var element in chain.ChainElements)
            {
                custom.ChainPolicy.ExtraStore.Add(element.Certificate);
            }
        }

        return custom.Build(certificate as X509Certificate2 ?? X509CertificateLoader.LoadCertificate(certificate.GetRawCertData()));
    }

    private static void Exists(string path, string option)
    {
        if (!File.Exists(path))
        {
            throw new CallSetupException($"{option} {path}: no such file.");
        }
    }
}

/// <summary>A TLS handshake that failed or did not finish within the connect bound: counted as <c>tls-handshake</c>.</summary>
public sealed class TlsHandshakeException(string message, Exception? inner = null) : AuthenticationException(message, inner);
