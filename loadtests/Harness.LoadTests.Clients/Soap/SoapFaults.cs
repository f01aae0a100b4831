using System.Xml;
using System.Xml.Linq;

namespace Harness.LoadTests.Clients.Soap;

/// <summary>
/// The fault in a reply's body, if it holds one: read only on a reply that mentions "Fault", so a success is never
/// parsed as XML. The caller names it (<see cref="SoapFailureNames"/>).
/// </summary>
internal static class SoapFaults
{
    /// <summary>A fault as read from the wire.</summary>
    /// <param name="Code">SOAP 1.1: <c>faultcode</c> as written (<c>s:Client</c>); SOAP 1.2: the innermost <c>Value</c> (the subcode's when there is one).</param>
    /// <param name="IsSenderFault">SOAP 1.1 <c>Client</c> or SOAP 1.2 <c>Sender</c> in the envelope's namespace, as WCF's <c>FaultCode.IsSenderFault</c>.</param>
    public sealed record Fault(string Code, string Reason, bool IsSenderFault);

    /// <returns>Null when the reply holds no fault, or is not XML (a proxy's error page: counted by its status).</returns>
    public static Fault? Read(ReadOnlySpan<byte> reply)
    {
        XElement? fault;
        try
        {
            using var stream = new MemoryStream(reply.ToArray(), writable: false);
            var body = XDocument.Load(stream).Root?.Elements().FirstOrDefault(e => e.Name.LocalName == "Body");
            fault = body?.Elements().FirstOrDefault(e => e.Name == SoapEnvelopeWriter.Soap11 + "Fault" || e.Name == SoapEnvelopeWriter.Soap12 + "Fault");
        }
        catch (XmlException)
        {
            return null;
        }

        if (fault is null)
        {
            return null;
        }

        // SOAP 1.1: <faultcode>s:Client</faultcode>. SOAP 1.2: <Code><Value>s:Sender</Value><Subcode><Value>a:Why</Value>…
        var soap11Code = fault.Element("faultcode");
        var values = fault.Descendants(SoapEnvelopeWriter.Soap12 + "Value").ToList();
        var code = ((string?)soap11Code ?? (string?)values.LastOrDefault() ?? "unknown").Trim();
        var reason = (string?)fault.Element("faultstring") ?? (string?)fault.Descendants(SoapEnvelopeWriter.Soap12 + "Text").FirstOrDefault() ?? "";
        var (topElement, sender) = soap11Code is not null
            ? (soap11Code, (Namespace: SoapEnvelopeWriter.Soap11, Name: "Client"))
            : (values.FirstOrDefault(), (Namespace: SoapEnvelopeWriter.Soap12, Name: "Sender"));
        return new Fault(code, reason.Trim(), topElement is not null && IsQualified(topElement, sender.Namespace, sender.Name));
    }

    /// <summary>True when the element's text is the QName <paramref name="ns"/>:<paramref name="name"/> by the element's own prefixes.</summary>
    private static bool IsQualified(XElement element, XNamespace ns, string name)
    {
        var text = element.Value.Trim();
        var colon = text.IndexOf(':');
        var prefix = colon < 0 ? "" : text[..colon];
        var local = text[(colon + 1)..];
        var resolved = prefix.Length == 0 ? element.GetDefaultNamespace() : element.GetNamespaceOfPrefix(prefix);
        return local == name && resolved == ns;
    }
}
