import AppChooser
import Hummingbird
import LinkMatching
import LinkResolver
import XCallbackURL

// The documents of the modules below the server, answered as they are, through the request context's encoder.
// The conformances live here because only the server knows Hummingbird.

extension Resolution: ResponseGenerator, ResponseEncodable {}

extension RuleTestReport: ResponseGenerator, ResponseEncodable {}

extension XCallbackRequest: ResponseGenerator, ResponseEncodable {}

extension PickerModel: ResponseGenerator, ResponseEncodable {}

extension AppTypeList: ResponseGenerator, ResponseEncodable {}

extension SiteChoice: ResponseGenerator, ResponseEncodable {}

extension SiteChoiceList: ResponseGenerator, ResponseEncodable {}
