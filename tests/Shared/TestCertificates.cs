using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Harness.Tests.Shared;

/// <summary>
/// A CA made for the test, a server certificate for 127.0.0.1 and localhost and a client certificate it signed, and
/// their PEM files in a folder of their own, removed on dispose: the CA and the client's are what the runner's options
/// name (<c>--cacert</c>, <c>--cert</c>, <c>--key</c>), the server's are what a server in another process loads.
/// </summary>
internal sealed class TestCertificates : IDisposable
{
    private TestCertificates(X509Certificate2 ca, X509Certificate2 server, string folder)
    {
        Ca = ca;
        Server = server;
        Folder = folder;
    }

    public X509Certificate2 Ca { get; }

    public X509Certificate2 Server { get; }

    public string Folder { get; }

    public string CaFile => Path.Combine(Folder, "ca.pem");

    public string ClientCertFile => Path.Combine(Folder, "client.pem");

    public string ClientKeyFile => Path.Combine(Folder, "client-key.pem");

    public string ServerCertFile => Path.Combine(Folder, "server.pem");

    public string ServerKeyFile => Path.Combine(Folder, "server-key.pem");

    public static TestCertificates Create()
    {
        var notBefore = DateTimeOffset.UtcNow.AddHours(-1);
        var notAfter = DateTimeOffset.UtcNow.AddDays(1);
        using var caKey = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var caRequest = new CertificateRequest("CN=Harness Test CA", caKey, HashAlgorithmName.SHA256);
        caRequest.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        caRequest.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, true));
        caRequest.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(caRequest.PublicKey, false));
        var ca = caRequest.CreateSelfSigned(notBefore, notAfter);

        var san = new SubjectAlternativeNameBuilder();
        san.AddIpAddress(IPAddress.Loopback);
        san.AddDnsName("localhost");
        var server = Issue(ca, "CN=localhost", "1.3.6.1.5.5.7.3.1", san.Build(), notBefore, notAfter, out var serverKey);
        var client = Issue(ca, "CN=harness-client", "1.3.6.1.5.5.7.3.2", null, notBefore, notAfter, out var clientKey);

        var folder = Directory.CreateTempSubdirectory("harness-tls-").FullName;
        File.WriteAllText(Path.Combine(folder, "ca.pem"), ca.ExportCertificatePem());
        File.WriteAllText(Path.Combine(folder, "client.pem"), client.ExportCertificatePem());
        File.WriteAllText(Path.Combine(folder, "client-key.pem"), clientKey);
        File.WriteAllText(Path.Combine(folder, "server.pem"), server.ExportCertificatePem());
        File.WriteAllText(Path.Combine(folder, "server-key.pem"), serverKey);
        return new TestCertificates(ca, server, folder);
    }

    /// <summary>True when <paramref name="certificate"/> chains to the test CA alone: the mTLS server's check of a client.</summary>
    public bool IssuedByCa(X509Certificate2 certificate)
    {
        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(Ca);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        return chain.Build(certificate);
    }

    public void Dispose()
    {
        Ca.Dispose();
        Server.Dispose();
        Directory.Delete(Folder, recursive: true);
    }

    private static X509Certificate2 Issue(
        X509Certificate2 ca, string subject, string usage, X509Extension? san, DateTimeOffset notBefore, DateTimeOffset notAfter, out string keyPem)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, false));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid(usage)], false));
        if (san is not null)
        {
            request.CertificateExtensions.Add(san);
        }

        var serial = new byte[8];
        RandomNumberGenerator.Fill(serial);
        using var issued = request.Create(ca, notBefore, notAfter, serial);
        keyPem = key.ExportPkcs8PrivateKeyPem();

        // Through PKCS#12, so the server's TLS stack holds the key as a loaded certificate's, not an ephemeral one.
        using var withKey = issued.CopyWithPrivateKey(key);
        return X509CertificateLoader.LoadPkcs12(withKey.Export(X509ContentType.Pfx), null);
    }
}
