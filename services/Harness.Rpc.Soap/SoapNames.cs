namespace Harness.Rpc.Soap;

/// <summary>Wire names shared by the server and the client, with the values WCF's BasicHttpBinding uses.</summary>
internal static class SoapNames
{
    public const string EnvelopeNamespace = "http://schemas.xmlsoap.org/soap/envelope/";
    public const string EnvelopePrefix = "s";

    // WCF's dispatcher fault subcodes (InternalServiceFault, DeserializationFailed) live here.
    public const string DispatcherNamespace = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";

    // AddressingVersion.None's namespace, in which BasicHttpBinding reports ActionNotSupported and DestinationUnreachable.
    public const string AddressingNoneNamespace = "http://schemas.microsoft.com/ws/2005/05/addressing/none";

    public const string ExceptionDetailNamespace = "http://schemas.datacontract.org/2004/07/System.ServiceModel";

    public const string MediaType = "text/xml";
    public const string ContentType = "text/xml; charset=utf-8";
    public const string SoapActionHeader = "SOAPAction";

    public const string ActionNotSupported = "ActionNotSupported";
    public const string DestinationUnreachable = "DestinationUnreachable";
    public const string InternalServiceFault = "InternalServiceFault";
    public const string DeserializationFailed = "DeserializationFailed";
    public const string MustUnderstand = "MustUnderstand";
    public const string VersionMismatch = "VersionMismatch";
}
