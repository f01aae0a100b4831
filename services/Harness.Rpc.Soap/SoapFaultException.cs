using System.Xml;

namespace Harness.Rpc.Soap;

/// <summary>
/// A SOAP fault. An operation throws it to answer with a fault (like WCF's <c>FaultException</c>); the client throws it
/// when the service answered with a fault.
/// </summary>
public sealed class SoapFaultException : Exception
{
    /// <summary>Creates a fault that the service sends as <c>s:Client</c> or <c>s:Server</c> with <paramref name="reason"/> as its faultstring.</summary>
    public SoapFaultException(SoapFaultCode code, string reason)
        : this(code, new XmlQualifiedName(code.ToString(), SoapNames.EnvelopeNamespace), reason, detail: null)
    {
    }

    internal SoapFaultException(SoapFaultCode code, XmlQualifiedName faultCode, string reason, SoapExceptionDetail? detail)
        : base(reason)
    {
        ArgumentNullException.ThrowIfNull(reason);
        if (!Enum.IsDefined(code))
        {
            throw new ArgumentOutOfRangeException(nameof(code), code, "Not a SOAP fault code.");
        }

        Code = code;
        FaultCode = faultCode;
        Reason = reason;
        Detail = detail;
    }

    /// <summary>Whether the sender or the receiver was at fault.</summary>
    public SoapFaultCode Code { get; }

    /// <summary>The fault's reason (its faultstring).</summary>
    public string Reason { get; }

    /// <summary>
    /// The faultcode as sent: <c>s:Client</c>/<c>s:Server</c>, or the WCF subcode that SOAP 1.1 carries in their place,
    /// such as <c>a:ActionNotSupported</c> or <c>a:InternalServiceFault</c>.
    /// </summary>
    public XmlQualifiedName FaultCode { get; }

    /// <summary>The server's exception, when it includes exception detail in faults; otherwise null.</summary>
    public SoapExceptionDetail? Detail { get; }

    /// <summary>
    /// Classifies a received faultcode. SOAP 1.1 has no subcodes, so WCF sends its subcode alone; the ones it raises for a
    /// bad request count as <see cref="SoapFaultCode.Client"/> and everything else as <see cref="SoapFaultCode.Server"/>.
    /// </summary>
    internal static SoapFaultCode Classify(XmlQualifiedName faultCode) => (faultCode.Namespace, faultCode.Name) switch
    {
        (SoapNames.EnvelopeNamespace, "Client" or SoapNames.MustUnderstand or SoapNames.VersionMismatch) => SoapFaultCode.Client,
        (SoapNames.AddressingNoneNamespace, SoapNames.ActionNotSupported) => SoapFaultCode.Client,
        (SoapNames.DispatcherNamespace, SoapNames.DeserializationFailed) => SoapFaultCode.Client,
        _ => SoapFaultCode.Server,
    };
}
